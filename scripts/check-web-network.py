"""The network half of scripts/check-web.py: the page through scripts/delay-proxy.py at 0, 150 and
400 ms round trips, timing what a user waits for, and the offline step (the link cut, a delete, a
reload, the link back), checking that the server and a second page converge.

Loaded by check-web.py (`run_network`); not a script of its own. Times are taken inside the page:
the input event's `timeStamp` and the first animation frame after the DOM shows the result
(`performance.now()`, both from navigation start), so the browser's own scheduling counts and
WebDriver's round trips do not.
"""
import importlib.util
import os
import re
import time

from selenium.webdriver.common.by import By

HERE = os.path.dirname(os.path.abspath(__file__))

# Injected into every new document before the page's own scripts (CDP): when rows are first shown.
# That is the first frame after a row is in `#rows` (the rows a script inserts), but never before the
# page's first contentful paint (rows the server put into the page are in the DOM before the
# stylesheet lets anything paint; the paint timing says when that frame reached the screen).
# And when the page is interactive: app.js has run to its end (its handlers are attached and it
# adopted the rows), which is the microtask after it sets `window.recentsPage`.
FIRST_ROWS = r"""
window.__rowsFrame = null;
window.__fcp = null;
window.__firstRows = null;
window.__interactive = null;
Object.defineProperty(window, 'recentsPage', {
  configurable: true,
  get() { return undefined; },
  set(value) {
    Object.defineProperty(window, 'recentsPage', {value, writable: true, configurable: true, enumerable: true});
    queueMicrotask(() => { window.__interactive = {ms: performance.now(), adopted: value.metrics.adopted}; });
  },
});
(() => {
  const done = () => {
    if (window.__rowsFrame !== null && window.__fcp !== null) window.__firstRows = Math.max(window.__rowsFrame, window.__fcp);
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__fcp = e.startTime;
    done();
  }).observe({type: 'paint', buffered: true});
  const mo = new MutationObserver(() => {
    if (!document.querySelector('#rows > li')) return;
    mo.disconnect();
    requestAnimationFrame(() => { window.__rowsFrame = performance.now(); done(); });
  });
  mo.observe(document, {childList: true, subtree: true});
})();
"""

# Arms one measurement: the first `input` event (capture phase) and the first frame after a DOM
# change for which PREDICATE (a JS expression over `records`) holds.
PROBE = r"""
const inputType = arguments[0];
const p = window.__probe = {input: null, dom: null, shown: null};
document.addEventListener(inputType, (e) => { if (p.input === null) p.input = e.timeStamp; }, {capture: true});
const mo = new MutationObserver((records) => {
  if (p.input === null || p.dom !== null || !(PREDICATE)) return;
  p.dom = performance.now();
  mo.disconnect();
  requestAnimationFrame(() => { p.shown = performance.now(); });
});
mo.observe(document.documentElement, {subtree: true, childList: true, attributes: true, characterData: true});
"""


def load_proxy():
    spec = importlib.util.spec_from_file_location("delayproxy", os.path.join(HERE, "delay-proxy.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.DelayProxy


def median(values):
    values = sorted(v for v in values if v is not None)
    return values[len(values) // 2] if values else None


def net_calls(now, prefix, n=10):
    """Calls from distinct peers (so no delete regroups rows), newest first."""
    return [dict(id=f"{prefix}-{i:02}", peer=dict(id=f"{prefix}p{i}", name=f"Peer {i}"), direction="incoming",
                 timestamp=int(now) - 120 * i - 60) for i in range(n)]


class NetworkRun:
    """One round-trip time: the proxy in front of the page's origin, one browser through it."""

    def __init__(self, ctx, rtt_ms):
        self.ctx = ctx
        self.rtt = rtt_ms
        self.api = ctx.api
        self.list = f"net{rtt_ms}"
        self.proxy = load_proxy()(ctx.page_port, rtt_ms / 2).start()
        self.base = f"http://127.0.0.1:{self.proxy.port}"
        self.driver = ctx.new_driver()
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FIRST_ROWS})
        self.page = ctx.Page(self.driver, self.base)
        self.url = f"{self.base}/?list={self.list}"
        self.results = {}

    def close(self):
        self.driver.quit()
        self.proxy.stop()

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    # MARK: loads

    def settle(self):
        """Waits until nothing has crossed the link for a round trip (at least 300 ms): a user's next
        load comes after the last one settled, not while its late requests (the service worker's
        registration, the event stream's connect) still hold the browser's idle connections."""
        self.page.wait(lambda: self.proxy.quiet_for() >= max(0.3, self.rtt / 1000), timeout=10)

    def navigate(self, settle=True):
        """Loads the page; answers (first rows, interactive) in ms from navigation start."""
        if settle:
            self.settle()
        self.driver.get("about:blank")
        self.driver.get(self.url)
        self.page.wait(lambda: self.js("return window.__firstRows !== null && window.__interactive !== null"),
                       timeout=15)
        interactive = self.js("return window.__interactive")
        # Interactive counts once the server's rows are adopted (a page that had to fetch them is not).
        ready = interactive["ms"] if interactive and interactive["adopted"] else None
        return self.js("return window.__firstRows"), ready

    def first_visit(self, new_connection):
        """A first visit: nothing stored for the origin, nothing in the HTTP cache; with
        `new_connection`, no open socket either (the page's request pays the handshake)."""
        self.settle()
        self.driver.get("about:blank")
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        self.driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": self.base, "storageTypes": "all"})
        if new_connection:
            self.proxy.cut()
            self.proxy.restore()
        return self.navigate(settle=False)

    def loads(self):
        cold = [self.first_visit(new_connection=True) for _ in range(5)]
        # The issue-37 measure: a first visit over a connection the browser has open already.
        fresh = [self.first_visit(new_connection=False) for _ in range(5)]
        warm = [self.navigate() for _ in range(5)]
        for name, loads in (("cold", cold), ("fresh", fresh), ("warm", warm)):
            rows, ready = [x[0] for x in loads], [x[1] for x in loads]
            self.results[f"first_rows_{name}_ms"] = round(median(rows), 1) if median(rows) else None
            self.results[f"interactive_{name}_ms"] = round(median(ready), 1) if median(ready) else None
            self.results.setdefault("first_rows_samples", {})[name] = [round(x or -1) for x in rows]
            self.results.setdefault("interactive_samples", {})[name] = [round(x or -1) for x in ready]

    # MARK: actions

    def ready(self):
        """Waits until the page shows the list's current version and nothing animates."""
        return self.page.settled(self.api, self.list)

    def probe(self, input_type, predicate, act, timeout=10):
        self.js(PROBE.replace("PREDICATE", predicate), input_type)
        act()
        self.page.wait(lambda: self.js("return window.__probe.shown") is not None, timeout=timeout)
        p = self.js("return window.__probe")
        return None if p["shown"] is None or p["input"] is None else p["shown"] - p["input"]

    def edit_done(self):
        samples = []
        for _ in range(3):
            self.ready()
            edit = self.driver.find_element(By.ID, "edit")
            samples.append(self.probe("click", "document.getElementById('edit').textContent === 'Done'", edit.click))
            self.page.wait(lambda: self.api.rows(self.list)["editing"], timeout=10)
            self.ready()
            self.driver.find_element(By.ID, "edit").click()
            self.page.wait(lambda: not self.api.rows(self.list)["editing"]
                           and self.js("return document.getElementById('edit').textContent") == "Edit", timeout=10)
        self.results["edit_to_done_ms"] = round(median(samples), 1) if median(samples) is not None else None
        self.results["edit_to_done_samples"] = [round(x) if x is not None else None for x in samples]

    def swipe_settle(self):
        samples = []
        for i in range(3):
            self.ready()
            row_id = self.api.rows(self.list)["rows"][i]["id"]
            predicate = ("records.some((r) => r.type === 'attributes' && r.attributeName === 'style' && "
                         f"r.target.closest('li.row')?.dataset.id === '{row_id}')")
            samples.append(self.probe("pointerup", predicate, lambda: self.page.drag(row_id, -44, steps=8, step_ms=40,
                                                                                      hold_ms=150)))
            self.page.wait(lambda: self.api.rows(self.list)["revealedRowId"] == row_id, timeout=10)
            self.api.call("PUT", f"/v1/lists/{self.list}/rows/{row_id}/reveal", {"revealed": False})
            self.page.wait(lambda: self.page.offset(row_id) == 0, timeout=10)
        self.results["swipe_release_to_settle_ms"] = round(median(samples), 1) if median(samples) is not None else None
        self.results["swipe_release_samples"] = [round(x) if x is not None else None for x in samples]

    def delete(self):
        samples = []
        for _ in range(2):
            self.ready()
            row_id = self.api.rows(self.list)["rows"][0]["id"]
            self.api.call("PUT", f"/v1/lists/{self.list}/rows/{row_id}/reveal", {"revealed": True})
            self.page.wait(lambda: self.page.offset(row_id) == -74, timeout=10)
            self.driver.find_element(By.CSS_SELECTOR, f'li.row[data-id="{row_id}"] .row-delete').click()
            self.page.wait(lambda: self.js("return document.getElementById('sheet').open"), timeout=10)
            button = self.driver.find_element(By.CSS_SELECTOR, '#sheet button[value="me"]')
            predicate = f"!!document.querySelector('li.row.leaving[data-id=\"{row_id}\"]')"
            samples.append(self.probe("click", predicate, button.click))
            self.page.wait(lambda: row_id not in [r["id"] for r in self.api.rows(self.list)["rows"]], timeout=10)
        self.results["delete_to_removal_ms"] = round(median(samples), 1) if median(samples) is not None else None
        self.results["delete_samples"] = [round(x) if x is not None else None for x in samples]


# MARK: - the offline step


def access_count(ctx, pattern):
    """Requests in the server's access log whose `method path` matches `pattern` (a regex)."""
    with open(ctx.server_log) as log:
        return sum(1 for line in log if "msg=request" in line and re.search(pattern, line))


def offline_step(ctx, run):
    """The link cut; a delete; a reload while offline; the link back: the delete lands once, all agree."""
    api, page, check = ctx.api, run.page, ctx.check
    name = run.list
    page.open(name)
    run.ready()
    second = ctx.Page(ctx.new_driver(), ctx.direct_base)
    try:
        second.open(name)
        second.settled(api, name)
        before = api.rows(name)
        target = before["rows"][1]["id"]
        run.proxy.cut()
        offline_seen = page.wait(lambda: page.d.find_element(By.ID, "status").is_displayed(), timeout=10)
        page.drag(target, -240, steps=12, step_ms=30, hold_ms=100)
        sheet = page.wait(lambda: page.js("return document.getElementById('sheet').open"), timeout=5)
        if sheet:
            page.d.find_element(By.CSS_SELECTOR, '#sheet button[value="me"]').click()
        gone_on_screen = page.wait(lambda: target not in [r[0] for r in page.dom()], timeout=2)
        status = page.js("return document.getElementById('status').textContent")
        check(offline_seen and sheet and gone_on_screen and "1" in status,
              f"offline: a full swipe and Delete for me remove the row at once; the page says {status!r}",
              (offline_seen, sheet, gone_on_screen, status))
        page.d.refresh()
        reloaded = page.wait(lambda: page.dom() and target not in [r[0] for r in page.dom()], timeout=10)
        expected = [r["id"] for r in before["rows"] if r["id"] != target]
        shown = [r[0] for r in page.dom()]
        status = page.js("return document.getElementById('status')?.textContent")
        check(reloaded and shown == expected and "1" in (status or ""),
              f"offline reload: the last known rows show, the delete still applied ({status!r})",
              (shown, expected, status))
        posts_before = access_count(ctx, rf"method=POST path=/v1/lists/{name}/rows/{target}/options/delete ")
        run.proxy.restore()
        back = time.monotonic()
        landed = page.wait(lambda: target not in [r["id"] for r in api.rows(name)["rows"]], timeout=10)
        elapsed = (time.monotonic() - back) * 1000
        after = api.rows(name)
        posts = access_count(ctx, rf"method=POST path=/v1/lists/{name}/rows/{target}/options/delete status=200")
        ctx.figures.setdefault("offline", {})["delete_lands_after_link_back_ms"] = round(elapsed) if landed else None
        # Once: the list moved by exactly one version (a retry of a lost answer would be a replay, also 200).
        check(landed and after["version"] == before["version"] + 1 and posts >= 1 and posts_before == 0,
              f"the offline delete reached the server exactly once, {elapsed:.0f} ms after the link came back "
              f"(versions {before['version']} → {after['version']}, {posts} POST answered 200)",
              (landed, before["version"], after["version"], posts_before, posts))
        ok_a, truth = page.settled(api, name)
        ok_b, _ = second.settled(api, name)
        quiet = page.wait(lambda: not page.d.find_element(By.ID, "status").is_displayed(), timeout=10)
        check(ok_a and ok_b and quiet and page.dom() == second.dom() == ctx.expected_dom(truth["rows"], time.time()),
              "after the link is back, both pages and GET rows agree, and the page no longer says offline",
              (ok_a, ok_b, quiet, page.dom(), second.dom()))
    finally:
        second.d.quit()


def same_day_pair(now, tz_minutes, gap):
    """Two past timestamps `gap` s apart on one local day: Telegram groups only calls of the same
    day, and a pair taken just before now straddles local midnight once a day (18:30 UTC here)."""
    newer = now - gap
    older = newer - gap
    midnight = (newer + tz_minutes * 60) // 86400 * 86400 - tz_minutes * 60
    if older < midnight:
        older, newer = midnight - 2 * gap, midnight - gap
    return older, newer


def rollback_step(ctx, run):
    """Another device's change wins: a delete made offline names a row that, before the link is back,
    another device grew with a newer call (so the row has a new id): the server refuses the delete
    (404), and the page shows the row again with a notice."""
    api, page, check = ctx.api, run.page, ctx.check
    name = run.list
    first, second = same_day_pair(int(time.time()), ctx.tz_minutes, 20)
    api.post(name, [dict(id="rb-1", peer=dict(id="rbpeer", name="Rita Black"), direction="incoming",
                         endReason="missed", timestamp=first)])
    page.open(name)
    run.ready()
    run.proxy.cut()
    page.wait(lambda: page.d.find_element(By.ID, "status").is_displayed(), timeout=10)
    page.drag("rb-1", -240, steps=12, step_ms=30, hold_ms=100)
    page.wait(lambda: page.js("return document.getElementById('sheet').open"), timeout=5)
    page.d.find_element(By.CSS_SELECTOR, '#sheet button[value="me"]').click()
    hidden = page.wait(lambda: "rb-1" not in [r[0] for r in page.dom()], timeout=2)
    api.post(name, [dict(id="rb-2", peer=dict(id="rbpeer", name="Rita Black"), direction="incoming",
                         endReason="missed", timestamp=second)])
    run.proxy.restore()
    noticed = page.wait(lambda: page.d.find_element(By.ID, "notice").is_displayed(), timeout=15)
    text = page.js("return document.getElementById('notice').textContent")
    spoken = page.js("return document.getElementById('announcer').textContent")
    ok, truth = page.settled(api, name)
    row = next((r for r in truth["rows"] if r["id"] == "rb-2"), None)
    check(hidden and noticed and "Couldn't delete Rita Black" in text and spoken == text and ok and row and row["count"] == 2
          and page.dom() == ctx.expected_dom(truth["rows"], time.time()),
          f"a delete that another device's change overtook comes back, with a notice, also read out ({text!r})",
          (hidden, noticed, text, spoken, ok, row))


def run_network(ctx, rtts, offline_at):
    """Measures at each round-trip time; runs the offline step at `offline_at` (None: skip it)."""
    table = {}
    for rtt in rtts:
        run = NetworkRun(ctx, rtt)
        try:
            now = time.time()
            ctx.api.post(run.list, net_calls(now, f"n{rtt}"))
            run.loads()
            run.edit_done()
            run.swipe_settle()
            run.delete()
            if rtt == offline_at:
                offline_step(ctx, run)
                rollback_step(ctx, run)
        finally:
            run.close()
        table[rtt] = run.results
        r = run.results
        print(f"net  {rtt:>3} ms RTT: first rows cold {r.get('first_rows_cold_ms')} ms, warm {r.get('first_rows_warm_ms')} ms; "
              f"interactive cold {r.get('interactive_cold_ms')} ms, on an open connection "
              f"{r.get('interactive_fresh_ms')} ms (first rows {r.get('first_rows_fresh_ms')} ms), "
              f"warm {r.get('interactive_warm_ms')} ms; "
              f"Edit→Done {r.get('edit_to_done_ms')} ms; swipe release→settle {r.get('swipe_release_to_settle_ms')} ms; "
              f"delete→removal {r.get('delete_to_removal_ms')} ms", flush=True)
    ctx.figures["network"] = table
    return table
