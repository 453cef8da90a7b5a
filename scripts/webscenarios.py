"""The checks of issue 15 in headless Chromium, in the order scripts/check-web.py runs them (`run`).

Not a script: imported by check-web.py; its helpers are scripts/webharness.py's.
"""
from webharness import *  # noqa: F401,F403  (the harness's names, as in one file)

try:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
except ImportError:
    pass  # check-web.py skips before any check runs


def markup(page, api):
    """The first rows in `/`: the Python reading of the markup contract matches the fixture, and a page
    the server filled adopts its rows, which are exactly what list-view.js renders for them."""
    spec = importlib.util.spec_from_file_location("rowmarkup", os.path.join(ROOT, "scripts", "row-markup.py"))
    rm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rm)
    wrong = rm.check_fixture()
    check(not wrong, "scripts/row-markup.py renders every case of Tests/Fixtures/rows-markup.json", wrong)
    page.open("alice")
    page.settled(api, "alice")
    same = page.d.execute_async_script(COMPARE_MARKUP)
    if same.get("inlined"):
        check(page.js("return window.recentsPage.metrics.adopted") is True and same["equal"] and same["rows"] > 0,
              f"`/` carries the first rows ({same['rows']}) in list-view.js's markup, and the page adopts them", same)
    else:
        print("note the page has no first view inlined (the server does not put it there yet)", flush=True)


COMPARE_MARKUP = """
const done = arguments[0];
(async () => {
  const html = await (await fetch(location.href)).text();
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const data = doc.getElementById('recents-initial');
  if (!data) return done({inlined: false});
  const initial = JSON.parse(data.textContent);
  const { rowHTML } = await import('./row-markup.js');
  const { applyTransition } = await import('./recents-client.js');
  const rows = applyTransition([], initial.transition);
  const t = document.createElement('template');
  const now = Date.now() / 1000;
  t.innerHTML = rows.map((r) => rowHTML(r, {tz: initial.view.tz, now, buttonWidth: initial.rules.gesture.buttonWidth})).join('');
  const server = doc.getElementById('rows');
  done({inlined: true, rows: rows.length, equal: server.innerHTML === t.innerHTML,
        server: server.innerHTML.slice(0, 400), page: t.innerHTML.slice(0, 400)});
})().catch((e) => done({inlined: true, equal: false, error: String(e)}));
"""


def rules(page, api):
    """The page decides a swipe's release with the numbers the server publishes."""
    status, published = api.call("GET", "/v1/rules")
    if status != 200:
        print("note the server publishes no rules (GET /v1/rules); the page uses Telegram's numbers", flush=True)
        return
    same = page.wait(lambda: page.js("return window.recentsPage.sync.rules") == published)
    check(same, "the page decides swipes with the rules of GET /v1/rules", page.js("return window.recentsPage.sync.rules"))


def run(page, api, second_driver):
    now = time.time()
    seed(api, now)
    markup(page, api)
    rules(page, api)

    # Page load to first rows (navigation start to the first applied rows, loopback).
    page.open("alice")
    page.wait(lambda: page.js("return window.recentsPage.metrics.firstRowsMs !== null"))
    cold = page.js("return window.recentsPage.metrics.firstRowsMs")
    loads = []
    for _ in range(5):  # the same page again, in a browser that has started (what a user's reload costs)
        page.open("alice")
        page.wait(lambda: page.js("return window.recentsPage.metrics.firstRowsMs !== null"))
        loads.append(page.js("return window.recentsPage.metrics.firstRowsMs"))
    load = sorted(loads)[len(loads) // 2]
    figures["load_to_first_rows_ms"] = {"first_in_a_new_browser": round(cold, 1), "median_of_5_reloads": round(load, 1)}
    if page.source == "binary":
        figure(f"page load to first rows, median of 5 reloads ({cold:.0f} ms in a new browser)", load, 200)
    check(page.js("return -new Date().getTimezoneOffset()") == TZ_MINUTES, f"the browser runs in {TZ_NAME}")
    ok, truth = page.settled(api, "alice")
    check(ok and page.dom() == expected_dom(truth["rows"], now),
          "the page renders exactly the rows of GET rows (names, counts, glyphs, local times)")

    swipes(page, api)
    edit_mode(page, api)
    missed_filter(page, api, now)
    two_tabs(page, api, second_driver())
    forget(page, api)
    batches(page, api, now)
    keyboard(page, api, now)
    accessibility(page, api, now)
    apply_time(page, api, now)
    motion(page, api, now)
    offline(page, api)
    load_script("check-web-open-row.py").run(page, api, check, now)


def swipes(page, api):
    ok, truth = page.settled(api, "alice")
    first, second = truth["rows"][0]["id"], truth["rows"][1]["id"]
    page.drag(first, -44, steps=11, step_ms=60, hold_ms=150)
    opened = page.wait(lambda: api.rows("alice")["revealedRowId"] == first and page.offset(first) == -74)
    check(opened, "a slow short drag opens a row (server and page agree)")
    page.shot("row-open.png")
    page.drag(second, -44, steps=11, step_ms=60, hold_ms=150)
    ok = page.wait(lambda: api.rows("alice")["revealedRowId"] == second and page.offset(first) == 0
                   and page.offset(second) == -74)
    check(ok, "opening a second row closes the first")
    api.call("PUT", f"/v1/lists/alice/rows/{second}/reveal", {"revealed": False})
    page.wait(lambda: page.offset(second) == 0)
    page.drag(first, -40, steps=2, step_ms=16)
    ok = page.wait(lambda: api.rows("alice")["revealedRowId"] == first and page.offset(first) == -74)
    check(ok, "a fast flick opens a row")
    target = truth["rows"][2]
    page.drag(target["id"], -200, steps=20, step_ms=30, hold_ms=150)
    shown = page.wait(lambda: page.js("return document.getElementById('sheet').open"))
    check(shown, "a drag past W + buttonWidth shows the sheet")
    page.shot("sheet.png")
    page.d.find_element(By.CSS_SELECTOR, '#sheet button[value="me"]').click()
    page.wait(lambda: target["id"] not in [r["id"] for r in api.rows("alice")["rows"]])
    ok, after = page.settled(api, "alice")
    gone = target["id"] not in [r["id"] for r in after["rows"]]
    check(ok and gone and [r[0] for r in page.dom()] == [r["id"] for r in after["rows"]],
          "Delete for me removes the row, and GET rows agrees",
          (ok, target["id"], page.dom(), after, page.js("return document.getElementById('sheet').open")))


def edit_mode(page, api):
    page.d.find_element(By.ID, "edit").click()
    page.wait(lambda: api.rows("alice")["editing"])
    page.settled(api, "alice")
    minus = page.d.find_elements(By.CSS_SELECTOR, "#rows li.row:not(.revealed) .row-minus")
    ok = page.wait(lambda: minus and all(e.is_displayed() for e in minus))
    check(ok and api.rows("alice")["editing"], "Edit shows the minus controls",
          (api.rows("alice")["editing"], [e.is_displayed() for e in minus], page.js("return document.getElementById('edit').textContent")))
    rows = [r for r in api.rows("alice")["rows"] if not r["revealed"]]
    page.d.find_element(By.CSS_SELECTOR, f'li.row[data-id="{rows[0]["id"]}"] .row-minus').click()
    page.wait(lambda: page.offset(rows[0]["id"]) == -74)
    page.shot("edit-mode.png")
    page.d.find_element(By.ID, "edit").click()
    ok = page.wait(lambda: api.rows("alice")["revealedRowId"] is None and page.offset(rows[0]["id"]) == 0
                   and not page.d.find_element(By.CSS_SELECTOR, "#rows .row-minus").is_displayed())
    check(ok, "Done closes the open row and hides the minus controls")
    page.d.find_element(By.ID, "edit").click()
    page.wait(lambda: page.d.find_element(By.ID, "clear").is_displayed())
    page.d.find_element(By.ID, "clear").click()
    page.wait(lambda: page.js("return document.getElementById('sheet').open"))
    before = api.rows("alice")["rows"]
    ids = {i for r in before for i in r["callIds"]}
    page.d.find_element(By.CSS_SELECTOR, '#sheet button[value="everyone"]').click()
    page.wait(lambda: api.rows("alice")["rows"] == [])
    ok, truth = page.settled(api, "alice")
    peers = {r["peer"]["id"] for r in before}
    copies = sum(1 for p in peers for r in api.rows(p)["rows"] for i in r["callIds"] if i in ids)
    check(ok and truth["rows"] == [] and page.dom() == [] and copies == 0,
          "Clear for everyone empties the list and the peers' copies")
    page.d.find_element(By.ID, "edit").click()
    page.wait(lambda: not api.rows("alice")["editing"])


def missed_filter(page, api, now):
    seed(api, now)
    ok, _ = page.settled(api, "alice")
    page.d.find_element(By.ID, "filter-missed").click()
    ok = page.wait(lambda: page.js("return window.recentsPage.state.shownView.filter") == "missed")
    plans = page.js("return window.recentsPage.metrics.applies.map(a => a.plan)")
    ok, truth = page.settled(api, "alice", "missed")
    check(ok and plans[-1] == "crossfade" and page.dom() == expected_dom(truth["rows"], now)
          and all(r["missed"] for r in truth["rows"]), "All → Missed crossfades and shows only missed rows")
    page.shot("missed-filter.png")
    page.d.find_element(By.ID, "filter-all").click()
    page.wait(lambda: page.js("return window.recentsPage.state.shownView.filter") == "all")


WATCH = """
const selector = arguments[0];
window.__seen = null;
const probe = () => {
  if (document.querySelector(selector) && window.__seen === null) window.__seen = Date.now();
};
new MutationObserver(probe).observe(document.getElementById('rows'), {childList: true, subtree: true, attributes: true});
probe();
"""


def two_tabs(page, api, driver_b):
    page_b = Page(driver_b, page.base)
    page_b.open("alice")
    page.settled(api, "alice")
    page_b.settled(api, "alice")
    # A write from outside.
    page_b.js(WATCH, 'li.row[data-id="c-new-1"]:not(.leaving)')
    started = time.time() * 1000
    api.post("alice", [dict(id="c-new-1", peer=dict(id="heidi", name="Heidi"), direction="incoming",
                            timestamp=int(time.time()))])
    page_b.wait(lambda: page_b.js("return window.__seen") is not None, timeout=3)
    outside = (page_b.js("return window.__seen") or 1e18) - started
    # A write from tab A: a swipe that opens a row, seen open in tab B.
    rows = api.rows("alice")["rows"]
    target = rows[1]["id"]
    page_b.js(WATCH, f'li.row.revealed[data-id="{target}"]')
    # The release's own time (both browsers read the same clock), not when WebDriver returns.
    page.js("window.__up = null; document.addEventListener('pointerup', "
            "(e) => { window.__up ??= performance.timeOrigin + e.timeStamp; }, {capture: true, once: true});")
    page.drag(target, -44, steps=11, step_ms=60, hold_ms=150)
    released = page.js("return window.__up") or time.time() * 1000
    page_b.wait(lambda: page_b.js("return window.__seen") is not None, timeout=3)
    swipe_seen = (page_b.js("return window.__seen") or 1e18) - released
    ok_a, truth = page.settled(api, "alice")
    ok_b, _ = page_b.settled(api, "alice")
    figures["write_visible_in_other_tab_ms"] = round(outside, 1)
    figures["live_updates_by"] = page_b.js("return window.recentsPage.state.follower?.mode")
    check(outside <= 3000, f"a write from outside appears in the other tab ({outside:.0f} ms)")
    figure("a write from outside visible in a tab", outside, 1000)
    figures["swipe_visible_in_other_tab_ms"] = round(swipe_seen, 1)
    check(page_b.offset(target) == -74, f"a swipe in one tab opens the row in the other ({swipe_seen:.0f} ms after the release)")
    figure("a swipe in one tab visible in the other", swipe_seen, 1000)
    check(ok_a and ok_b and page.dom() == page_b.dom() == expected_dom(truth["rows"], time.time()),
          "both tabs end equal to GET rows", (ok_a, ok_b, page.dom(), page_b.dom(), expected_dom(truth["rows"], time.time())))
    driver_b.quit()


def forget(page, api):
    status, _ = api.call("DELETE", "/v1/lists/alice")
    ok, truth = page.settled(api, "alice")
    check(status == 200 and ok and page.dom() == [] and truth["rows"] == [], "DELETE of the list: the page resyncs to empty")


def batches(page, api, now):
    calls = [dict(id=f"b-{i:03}", peer=dict(id=f"p{i}", name=f"Peer {i}"), direction="incoming",
                  timestamp=int(now) - 60 * i) for i in range(300)]
    api.post("big", calls)
    page.open("big")
    page.settled(api, "big")
    page.js("document.querySelector('#rows > li').__marker = 1")
    reloads_before = page.js("return window.recentsPage.metrics.applies.filter(a => a.reason === 'initial').length")
    for _ in range(12):
        ActionChains(page.d).scroll_by_amount(0, 3000).perform()
        time.sleep(0.1)
        if page.js("return window.recentsPage.state.rows.length") >= 100:
            break
    page.wait(lambda: page.js("return window.recentsPage.state.rows.length") >= 100)
    count = page.js("return window.recentsPage.state.rows.length")
    same_node = page.js("return document.querySelector('#rows > li').__marker === 1")
    reloads = page.js("return window.recentsPage.metrics.applies.filter(a => a.reason === 'initial').length")
    ok, truth = page.settled(api, "big")
    page_limit = page.js("return window.recentsPage.state.shownView.limit")
    truth = api.rows("big", limit=page_limit)
    check(count >= 100 and same_node and reloads == reloads_before
          and [r[0] for r in page.dom()] == [r["id"] for r in truth["rows"]],
          f"300 rows: scrolling to the end grows the window to {count} rows with no reload")


def keyboard(page, api, now):
    api.call("DELETE", "/v1/lists/alice")
    seed(api, now)
    page.open("alice")
    ok, truth = page.settled(api, "alice")
    target = truth["rows"][0]
    keys = ActionChains(page.d)
    for _ in range(3):  # Edit, All, Missed, then the first row
        keys.send_keys(Keys.TAB)
    keys.send_keys(Keys.TAB).perform()
    focused = page.js("return document.activeElement.closest('li.row')?.dataset.id")
    ActionChains(page.d).send_keys(Keys.ARROW_LEFT).perform()
    page.wait(lambda: page.js("return document.activeElement.classList.contains('row-delete')"))
    ActionChains(page.d).send_keys(Keys.ENTER).perform()
    page.wait(lambda: page.js("return document.getElementById('sheet').open"))
    ActionChains(page.d).send_keys(Keys.ENTER).perform()
    page.wait(lambda: target["id"] not in [r["id"] for r in api.rows("alice")["rows"]])
    ok, after = page.settled(api, "alice")
    announced = page.js("return document.getElementById('announcer').textContent")
    check(focused == target["id"] and ok and target["id"] not in [r["id"] for r in after["rows"]]
          and announced.startswith("Deleted"), f"keyboard-only deletion works and is announced ({announced!r})",
          (focused, target["id"], ok, [r["id"] for r in after["rows"]]))


def accessibility(page, api, now):
    rows = api.rows("alice")["rows"]
    api.call("PUT", "/v1/lists/alice/editing", {"editing": True})
    api.call("PUT", f"/v1/lists/alice/rows/{rows[0]['id']}/reveal", {"revealed": True})
    page.settled(api, "alice")
    page.d.execute_cdp_cmd("Accessibility.enable", {})
    tree = page.d.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    controls = [n for n in tree if not n.get("ignored") and n.get("role", {}).get("value") in ("button", "radio")]
    buttons = [n for n in controls if n["role"]["value"] == "button"]
    unnamed = [n for n in controls if not n.get("name", {}).get("value", "").strip()]
    # Edit/Done, Clear, one minus control per row and the open row's Delete; All and Missed are radios.
    check(len(buttons) >= len(rows) + 3 and len(controls) >= len(rows) + 5 and not unnamed,
          f"every button has an accessible name ({len(buttons)} buttons in the accessibility tree, edit mode, a row open)",
          unnamed)
    api.call("PUT", "/v1/lists/alice/editing", {"editing": False})
    page.settled(api, "alice")


def apply_time(page, api, now):
    """Five times: an empty list receives 50 rows in one transition (the page applies it in one go)."""
    page.open("fifty")
    times = []
    for run in range(5):
        api.call("DELETE", "/v1/lists/fifty")
        page.settled(api, "fifty")
        calls = [dict(id=f"f-{run}-{i:03}", peer=dict(id=f"q{i}", name=f"Quinn {i}"), direction="outgoing",
                      timestamp=int(now) - 30 * i) for i in range(50)]
        api.post("fifty", calls)
        page.wait(lambda: api.rows("fifty")["rows"])
        page.settled(api, "fifty")
        times.append(page.js("return window.recentsPage.metrics.applies.filter(a => a.changes >= 50).at(-1)?.ms"))
    times = sorted(t for t in times if t is not None)
    median = times[len(times) // 2] if times else None
    figures["apply_50_row_transition_ms"] = {"median": round(median, 1), "max": round(times[-1], 1)} if times else None
    check(len(times) == 5, "a 50-row transition is applied in one go, five times", times)
    figure(f"applying a 50-row transition, median of 5 (max {max(times, default=0):.1f} ms)", median, 16)


def motion(page, api, now):
    """A new call on top slides in (directionHint down); with prefers-reduced-motion it only fades."""
    plans = []
    for reduce in (False, True):
        page.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-reduced-motion", "value": "reduce" if reduce else "no-preference"}]})
        page.open("fifty")
        page.settled(api, "fifty")
        page.js("""window.__moves = 0; const ul = document.getElementById('rows');
            new MutationObserver(() => { for (const a of document.getAnimations())
              if (a.effect?.getKeyframes().some(k => k.transform)) window.__moves += 1; })
            .observe(ul, {childList: true});""")
        api.post("fifty", [dict(id=f"m-{int(reduce)}", peer=dict(id="zed", name="Zed"), direction="incoming",
                                timestamp=int(time.time()) + 10)])
        page.wait(lambda: api.rows("fifty")["rows"][0]["id"] == f"m-{int(reduce)}")
        page.settled(api, "fifty")
        plans.append((page.js("return window.recentsPage.metrics.applies.at(-1).plan"), page.js("return window.__moves")))
    page.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    check(plans[0][0] == "animated" and plans[0][1] > 0 and plans[1] == ("fade", 0),
          "inserts slide in from the top; prefers-reduced-motion turns movement off", plans)


def offline(page, api):
    """With the server gone the page says it is offline; when it is back, the page catches up."""
    page.open("alice")
    page.settled(api, "alice")
    shown = {}

    def down():
        shown["offline"] = page.wait(lambda: page.d.find_element(By.ID, "status").is_displayed(), timeout=5)

    watcher = threading.Thread(target=down)
    watcher.start()
    page.outage(1.5)
    watcher.join()
    api.post("alice", [dict(id="c-after-outage", peer=dict(id="ivan", name="Ivan"), direction="incoming",
                            timestamp=int(time.time()))])
    back = page.wait(lambda: not page.d.find_element(By.ID, "status").is_displayed(), timeout=20)
    ok, truth = page.settled(api, "alice")
    ok = ok and page.wait(lambda: "c-after-outage" in [r[0] for r in page.dom()], timeout=5)
    check(shown.get("offline") and back and ok, "offline: the page shows it, reconnects with backoff and catches up",
          (shown, back, ok))


