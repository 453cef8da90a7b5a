#!/usr/bin/env python3
"""The call info view and the missed-calls badge of issue 41, in headless Chromium against
`recents serve`:

- a row's (i) button opens the info view (focus in it): the date header and one line per call of
  the row's group, newest first, with Telegram's kind words; a call posted over HTTP that joins the
  group shows in the open view; Escape closes it and gives focus back to the (i) button; a delete of
  the row over HTTP closes the view with the page's notice; a row pushed beyond the window and
  renamed there by a joining call keeps its view open, which follows it under its new id;
- with 3 unseen missed calls the Missed segment says "Missed 3" and the title starts with "(3) ";
- two pages of one list (two windows of one browser, each with its own view: All and Missed): once
  the first is looked at (visible and focused) it marks the calls seen, and the second shows the
  badge cleared within 1 s of the first clearing it (each page records when, by its own clock).

Whether a page is looked at is `document.hasFocus()`: the pages start as if another window had the
focus (a script run before the page's own), so nothing is marked before the check says so.

usage: scripts/check-web-callinfo.py [path/to/recents]
Skips (exit 0, one line) when chromium, chromedriver or selenium is missing.
"""
import argparse
import os
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import webharness as h  # noqa: E402

try:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    pass

check = h.check
LIST, BADGE, FAR = "callinfo", "badge", "callinfo-far"
# More rows than the page's first window (app.js's batchSize, 50) holds.
FILLERS = 55

# Before the page's scripts: the page is not looked at until `window.__lookAt()`.
AWAY = """
window.__away = true;
const realHasFocus = Document.prototype.hasFocus;
Document.prototype.hasFocus = function () { return !window.__away && realHasFocus.call(this); };
window.__lookAt = () => { window.__away = false; window.dispatchEvent(new Event('focus')); };
"""

# Records (Date.now()) when the Missed segment stops counting.
WATCH_CLEAR = """
window.__cleared = null;
const segment = document.getElementById('filter-missed');
const probe = () => { if (window.__cleared === null && !/\\d/.test(segment.textContent)) window.__cleared = Date.now(); };
new MutationObserver(probe).observe(segment, {childList: true, characterData: true, subtree: true});
probe();
"""

LINES = ("return [...document.querySelectorAll('#call-info .call-line')].map((li) => [li.dataset.id, "
         "li.querySelector('.call-kind').textContent, li.querySelector('.call-duration')?.textContent ?? ''])")


def until(page, predicate, timeout=5.0):
    """Waits (WebDriverWait) until `predicate()` holds; answers whether it did within `timeout` s."""
    try:
        WebDriverWait(page.d, timeout, poll_frequency=0.02, ignored_exceptions=(Exception,)).until(lambda _: predicate())
        return True
    except TimeoutException:
        return False


def counts(page, n):
    segment, title = badge(page)
    return segment == (f"Missed {n}" if n else "Missed") and title.startswith(f"({n}) ") == (n > 0)


def badge(page):
    return page.js("return [document.getElementById('filter-missed').textContent, document.title]")


def session(env, base):
    driver = h.new_driver(env)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": AWAY})
    return h.Page(driver, base)


def call(id_, peer, name, ts, **kw):
    return dict(id=id_, peer=dict(id=peer, name=name), direction=kw.pop("direction", "incoming"),
                endReason=kw.pop("endReason", "missed"), timestamp=ts, **kw)


def info_view(page, api, now):
    """The (i) button, the view's lines, a call joining the group, Escape, and a delete from outside."""
    t = int(now) - 400
    # Bob's two missed calls are the newest row, so a third joins it.
    api.post(LIST, [call("i-3", "carol", "Carol Diaz", t, direction="outgoing", endReason="hangup", video=True,
                         duration=312),
                    call("i-4", "dave", "Dave", t + 60),
                    call("i-1", "bob", "Bob Lee", t + 120), call("i-2", "bob", "Bob Lee", t + 180)])
    page.open(LIST)
    ok, truth = page.settled(api, LIST)
    check(ok and until(page, lambda: counts(page, 3)),
          "3 unseen missed calls: the segment says \"Missed 3\" and the title starts with \"(3) \"", badge(page))

    button = page.d.find_element(h.By.CSS_SELECTOR, 'li.row[data-id="i-2"] .row-info')
    check(button.accessible_name == "Call info", "the (i) button is named \"Call info\"", button.accessible_name)
    button.click()
    opened = until(page, lambda: page.js("return document.getElementById('call-info').open") and len(page.js(LINES)) == 2)
    focus = page.js("return document.getElementById('call-info').contains(document.activeElement)")
    check(opened and focus and page.js(LINES) == [["i-2", "Missed", ""], ["i-1", "Missed", ""]]
          and page.js("return document.querySelector('#call-info .call-info-date').textContent") != ""
          and page.js("return window.recentsPage.state.pending") == 0 and api.rows(LIST)["revealedRowId"] is None,
          "the (i) button opens the info view, focused, newest call first, and changes nothing of the list",
          (opened, focus, page.js(LINES)))

    api.post(LIST, [call("i-5", "bob", "Bob Lee", t + 240)])
    joined = until(page, lambda: [line[0] for line in page.js(LINES)] == ["i-5", "i-2", "i-1"])
    check(joined and page.js("return document.getElementById('call-info').dataset.rowId") == "i-5",
          "a call that joins the group over HTTP shows in the open view", page.js(LINES))

    page.d.find_element(h.By.CSS_SELECTOR, "#call-info .call-info-close").send_keys(Keys.ESCAPE)
    closed = until(page, lambda: not page.js("return document.getElementById('call-info').open"))
    back = until(page, lambda: page.js("return document.activeElement?.matches('li.row[data-id=\"i-5\"] .row-info') ?? false"))
    check(closed and back, "Escape closes the view and gives the focus back to the row's (i) button",
          (closed, page.js("return document.activeElement?.outerHTML.slice(0, 120)")))

    page.d.find_element(h.By.CSS_SELECTOR, 'li.row[data-id="i-3"] .row-info').click()
    # 312 s: whole minutes, in the locale's short unit ("5 min", en-GB's "5 mins").
    video = lambda: (lambda lines: len(lines) == 1 and lines[0][:2] == ["i-3", "Outgoing Video"]
                     and lines[0][2].startswith("5 min"))(page.js(LINES))
    check(until(page, video), "an outgoing video call: its kind word and duration", page.js(LINES))
    page.d.find_element(h.By.CSS_SELECTOR, "#call-info .call-info-close").click()
    until(page, lambda: not page.js("return document.getElementById('call-info').open"))

    api.call("PUT", f"/v1/lists/{LIST}/editing", {"editing": True})
    hidden = until(page, lambda: page.js("return [...document.querySelectorAll('#rows .row-info')]"
                                         ".every((b) => b.offsetParent === null)"))
    api.call("PUT", f"/v1/lists/{LIST}/editing", {"editing": False})
    shown = until(page, lambda: page.js("return [...document.querySelectorAll('#rows .row-info')]"
                                        ".every((b) => b.offsetParent !== null)"))
    check(hidden and shown, "edit mode hides the (i) buttons, Done shows them again", (hidden, shown))

    page.d.find_element(h.By.CSS_SELECTOR, 'li.row[data-id="i-5"] .row-info').click()
    until(page, lambda: len(page.js(LINES)) == 3)
    status, _ = api.call("POST", f"/v1/lists/{LIST}/rows/i-5/options/delete?filter=all&tz={h.TZ_MINUTES}",
                         {"scope": "me"})
    gone = until(page, lambda: not page.js("return document.getElementById('call-info').open"))
    notice = page.js("const n = document.getElementById('notice'); return n.hidden ? null : n.textContent")
    check(status == 200 and gone and notice == "The call was deleted on another device",
          "a delete of the row over HTTP closes the view with a notice", (status, gone, notice))


def beyond_window(page, api, now):
    """A row whose view is open, pushed beyond the window, then renamed there by a joining call."""
    # Erin's two missed calls on one local day two days ago (noon), far below the fillers.
    day = (int(now) + h.TZ_MINUTES * 60) // 86400 - 2
    t = day * 86400 + 12 * 3600 - h.TZ_MINUTES * 60
    api.post(FAR, [call("w-1", "erin", "Erin", t)])
    page.open(FAR)
    page.settled(api, FAR)
    page.d.find_element(h.By.CSS_SELECTOR, 'li.row[data-id="w-1"] .row-info').click()
    until(page, lambda: [line[0] for line in page.js(LINES)] == ["w-1"])
    fillers = [call(f"f-{i}", f"peer-{i}", f"Peer {i}", t + 3600 + 60 * i, direction="outgoing",
                    endReason="hangup", duration=30) for i in range(FILLERS)]
    api.post(FAR, fillers)
    beyond = until(page, lambda: page.js("return document.querySelector('li.row[data-id=\"w-1\"]') === null"))
    check(beyond and page.js("return document.getElementById('call-info').open"),
          "the open view stays open when its row leaves the window", beyond)
    api.post(FAR, [call("w-2", "erin", "Erin", t + 60)])
    followed = until(page, lambda: [line[0] for line in page.js(LINES)] == ["w-2", "w-1"]
                     and page.js("return document.getElementById('call-info').dataset.rowId") == "w-2")
    notice = page.js("const n = document.getElementById('notice'); return n.hidden ? null : n.textContent")
    check(followed and page.js("return document.getElementById('call-info').open") and notice is None,
          "a call joining the row beyond the window renames it there (GET rows/w-1 is 404): the view follows "
          "it under its new id, with no notice", (page.js(LINES), notice))
    page.d.find_element(h.By.CSS_SELECTOR, "#call-info .call-info-close").click()
    until(page, lambda: not page.js("return document.getElementById('call-info').open"))


def two_pages(first, second, api, now):
    """The second page sees the badge the first cleared within 1 s."""
    t = int(now) - 300
    api.post(BADGE, [call(f"b-{i}", f"bp{i}", f"Peer {i}", t + 60 * i) for i in range(3)])
    first.open(BADGE)
    second.open(BADGE)
    second.d.find_element(h.By.ID, "filter-missed").click()
    counted = all(until(p, lambda p=p: badge(p) == ["Missed 3", "(3) " + p.js("return document.title").removeprefix("(3) ")]
                         and p.js("return window.recentsPage.state.shownView?.filter") is not None)
                  for p in (first, second))
    until(second, lambda: second.js("return window.recentsPage.state.shownView.filter") == "missed")
    check(counted, "two pages of the list (All and Missed) both say \"Missed 3\"", [badge(first), badge(second)])
    for p in (first, second):
        p.js(WATCH_CLEAR)
    first.js("window.__lookAt()")
    cleared = until(first, lambda: first.js("return window.__cleared") is not None)
    seen = until(second, lambda: second.js("return window.__cleared") is not None, timeout=5)
    at_first, at_second = first.js("return window.__cleared"), second.js("return window.__cleared")
    lag = at_second - at_first if cleared and seen else None
    check(cleared and seen and lag <= 1000 and counts(second, 0) and counts(first, 0),
          f"the first page, looked at, marks the calls seen; the second shows the badge cleared {lag} ms later (≤ 1000)",
          (badge(first), badge(second)))
    marked = until(first, lambda: api.call("GET", f"/v1/lists/{BADGE}")[1]["unseenMissed"] == 0)
    check(marked, "the mark reached the server: unseenMissed 0", api.call("GET", f"/v1/lists/{BADGE}")[1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=os.path.join(h.ROOT, ".build/debug/recents"))
    parser.add_argument("--page", default="binary", choices=("binary", "dev"),
                        help="the binary's own page, or Web/ from disk through scripts/web-dev-server.py")
    parser.add_argument("--rtt", type=int, default=0,
                        help="round trip in ms between the browser and the server (scripts/delay-proxy.py); 0: none")
    args = parser.parse_args()
    if h.skipped_without_browser("check-web-callinfo"):
        return 0
    workdir = tempfile.mkdtemp(prefix="recents-callinfo-")
    proc, api_base = h.start_server(os.path.abspath(args.binary), workdir)
    api = h.API(api_base)
    proxy = None
    if args.rtt:
        # Only the browser's link is slow; the checks' own posts and deletes go straight to the server.
        proxy = h.load_script("delay-proxy.py").DelayProxy(int(api_base.rsplit(":", 1)[1]), args.rtt / 2).start()
    base, source = h.page_base(f"http://127.0.0.1:{proxy.port}" if proxy else api_base, args.page)
    print(f"page from {source}" + (f", through a {args.rtt} ms round trip" if proxy else ""), flush=True)
    env = dict(os.environ, TZ=h.TZ_NAME)
    pages = []
    try:
        now = time.time()
        pages.append(session(env, base))
        info_view(pages[0], api, now)
        beyond_window(pages[0], api, now)
        # A second window of the same browser (its tabs share the list's event stream).
        pages[0].d.switch_to.new_window("window")
        pages[0].d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": AWAY})
        first_handle = pages[0].d.window_handles[0]
        second = h.Page(pages[0].d, base)
        second_handle = pages[0].d.current_window_handle
        two_pages(WindowPage(pages[0], first_handle), WindowPage(second, second_handle), api, now)
    finally:
        for page in pages:
            page.d.quit()
        if proxy:
            proxy.stop()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)
    if h.failures:
        print(f"check-web-callinfo: {len(h.failures)} check(s) failed")
        return 1
    print("check-web-callinfo: all checks passed")
    return 0


class WindowPage:
    """A Page bound to one window of the driver: it switches to its window before each use."""

    def __init__(self, page, handle):
        self.page = page
        self.handle = handle

    def __getattr__(self, name):
        if self.page.d.current_window_handle != self.handle:
            self.page.d.switch_to.window(self.handle)
        return getattr(self.page, name)


if __name__ == "__main__":
    sys.exit(main())
