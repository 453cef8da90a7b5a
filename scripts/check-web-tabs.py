#!/usr/bin/env python3
"""Many tabs of one browser (one profile) on the page served by `recents serve` over plain
HTTP/1.1, where a browser gives the host six connections (issue 37).

Each run opens N tabs in a new headless Chromium and checks, per list: every tab shows the rows
within 3 s of its navigation; every tab shows a call posted from outside within 2 s (one follower
tab on the Missed filter, where there are 3 or more tabs: the leader's stream is for another view);
Edit in the last tab reaches the server within 1 s; `/metrics` counts one event stream per list.
Then the tab that holds the stream is closed (or its renderer crashed): another tab leads within
2 s, the other tabs show the next posted call within 3 s, still on one stream. Runs: 1, 6 and 12
tabs of one list (the leader closed at 6 and 12, crashed at 12), and 12 tabs over 3 lists.

usage: scripts/check-web-tabs.py [path/to/recents] [--runs 1,6,12,12crash,3x12]
Skips (exit 0, one line) when chromium, chromedriver or selenium is missing.
"""
import argparse
import importlib.util
import os
import re
import shutil
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("checkweb", os.path.join(HERE, "check-web.py"))
web = importlib.util.module_from_spec(spec)
spec.loader.exec_module(web)
check = web.check

# Records when a row (by CSS selector) first shows in this tab (wall clock, as Python's).
WATCH = """
const selector = arguments[0];
window.__seen = null;
const probe = () => { if (window.__seen === null && document.querySelector(selector)) window.__seen = Date.now(); };
new MutationObserver(probe).observe(document.documentElement, {childList: true, subtree: true, attributes: true});
probe();
"""

READY = ("return !!window.recentsPage && window.recentsPage.state.version !== null "
         "&& document.querySelectorAll('#rows > li.row').length > 0")


def wait(predicate, timeout):
    """Polls `predicate` until it holds or `timeout` s pass; answers whether it held."""
    end = time.monotonic() + timeout
    while True:
        try:
            if predicate():
                return True
        except Exception:
            pass
        if time.monotonic() >= end:
            return False
        time.sleep(0.02)


def calls(prefix, n, now, missed=False):
    return [dict(id=f"{prefix}-{i}", peer=dict(id=f"{prefix}p{i}", name=f"Peer {i}"), direction="incoming",
                 endReason="missed" if missed else "hangup", timestamp=int(now) - 60 * i) for i in range(n)]


class Browser:
    """One Chromium (one profile) with tabs, each on a list; `handles[i]` is tab i."""

    def __init__(self, base):
        self.base = base
        self.d = web.new_driver(dict(os.environ, TZ=web.TZ_NAME), page_load_strategy="none")
        self.d.set_script_timeout(5)
        self.handles = []
        self.lists = []
        self.opened = []

    def quit(self):
        try:
            self.d.quit()
        except Exception:
            pass

    def open(self, list_name):
        """A new tab on `list_name` (the first one reuses the window the driver started with)."""
        if self.handles:
            self.d.switch_to.new_window("tab")
        self.handles.append(self.d.current_window_handle)
        self.lists.append(list_name)
        self.opened.append(time.monotonic())
        self.d.get(f"{self.base}/?list={list_name}")

    def js(self, tab, script, *args):
        self.d.switch_to.window(self.handles[tab])
        return self.d.execute_script(script, *args)

    def tabs_of(self, list_name):
        return [i for i, name in enumerate(self.lists) if name == list_name and self.handles[i] is not None]

    def leader(self, list_name):
        """The tab holding the list's stream (the page says so), else the first tab of the list."""
        tabs = self.tabs_of(list_name)
        for i in tabs:
            try:
                if self.js(i, "return window.recentsPage?.state.leading") is True:
                    return i
            except Exception:
                pass
        return tabs[0]

    def end(self, tab, how):
        """Closes tab `tab`, or crashes its renderer; the tab no longer counts."""
        self.d.switch_to.window(self.handles[tab])
        if how == "close":
            self.d.close()
        else:
            try:
                self.d.execute_cdp_cmd("Page.crash", {})
            except Exception:
                pass  # the command's answer dies with the renderer
        self.handles[tab] = None
        self.d.switch_to.window(next(h for h in self.handles if h is not None))

    def alive(self, tabs):
        """The tabs whose page still answers (a crash may take tabs that share its renderer)."""
        out = []
        for i in tabs:
            try:
                self.js(i, "return 1")
                out.append(i)
            except Exception:
                self.handles[i] = None
        return out


def streams(api):
    text = urllib_get(api.base + "/metrics")
    match = re.search(r"^recents_open_event_streams (\d+)$", text, re.M)
    return int(match.group(1)) if match else None


def urllib_get(url):
    with web.urllib.request.urlopen(url, timeout=5) as res:
        return res.read().decode()


def shown_everywhere(browser, api, list_name, tabs, row_id, limit_s, posted_calls, label):
    """Posts `posted_calls` to the list and checks every tab of `tabs` shows `row_id` within `limit_s`."""
    for i in tabs:
        browser.js(i, WATCH, f'li.row[data-id="{row_id}"]:not(.leaving)')
    posted = time.time() * 1000
    api.post(list_name, posted_calls)
    seen = {}

    def all_seen():
        for i in tabs:
            if i not in seen:
                at = browser.js(i, "return window.__seen")
                if at is not None:
                    seen[i] = at - posted
        return len(seen) == len(tabs)

    wait(all_seen, limit_s + 0.5)
    late = {i: (round(seen[i]) if i in seen else None) for i in tabs if i not in seen or seen[i] > limit_s * 1000}
    worst = max(seen.values(), default=None)
    check(not late, f"{label}: {len(tabs)} tab(s) show a call posted from outside within {limit_s:g} s "
                    f"(slowest {worst if worst is None else round(worst)} ms)", {"late tabs (ms)": late})


def run_list(browser, api, list_name, now, missed_follower):
    """The checks of one list whose tabs are open in `browser`."""
    tabs = browser.tabs_of(list_name)
    loaded = {}  # tab → ms from its navigation start to its first rows (the page's own figure)

    def all_loaded():
        for i in tabs:
            if i not in loaded and browser.js(i, READY):
                loaded[i] = browser.js(i, "return window.recentsPage.metrics.firstRowsMs")
        return len(loaded) == len(tabs)

    wait(all_loaded, max(0.5, 3 - (time.monotonic() - browser.opened[tabs[-1]])))
    slow = [i + 1 for i in tabs if loaded.get(i) is None or loaded[i] > 3000]
    worst = max((ms for ms in loaded.values() if ms is not None), default=None)
    check(not slow, f"{list_name}: every one of {len(tabs)} tab(s) shows the rows within 3 s of its navigation "
                    f"(slowest {worst if worst is None else round(worst)} ms)", {"tabs without rows in 3 s": slow})
    if len(loaded) < len(tabs):
        return
    follower = None
    if missed_follower and len(tabs) >= 3:
        follower = next(i for i in reversed(tabs[:-1]) if i != browser.leader(list_name))
        browser.js(follower, "document.getElementById('filter-missed').click()")
        wait(lambda: browser.js(follower, "const s = window.recentsPage.state;"
                                          "return s.shownView.filter === 'missed' && !s.busy"), 3)
    shown_everywhere(browser, api, list_name, tabs, f"{list_name}-new-0", 2,
                     calls(f"{list_name}-new", 1, now + 5, missed=True),
                     f"{list_name}" + (f" (tab {follower + 1} on Missed)" if follower is not None else ""))
    last = tabs[-1]
    browser.js(last, "document.getElementById('edit').click()")
    clicked = time.monotonic()
    reached = wait(lambda: api.rows(list_name)["editing"], 1)
    elapsed = time.monotonic() - clicked
    check(reached, f"{list_name}: Edit in the last tab (tab {last + 1}) reaches the server within 1 s "
                   f"({'%.0f ms' % (elapsed * 1000) if reached else 'not within 1 s'})")
    if reached:
        browser.js(last, "document.getElementById('edit').click()")
        wait(lambda: not api.rows(list_name)["editing"], 3)


def one_stream_each(api, count, label):
    seen = []
    ok = wait(lambda: seen.append(streams(api)) or seen[-1] == count, 3)
    check(ok, f"{label}: /metrics shows {count} open event stream(s) "
              f"(recents_open_event_streams {seen[-1] if seen else None})")


def run(base, api, tabs, lists, end, now, label):
    browser = Browser(base)
    names = [f"{label}-{k}" for k in range(lists)]
    try:
        for name in names:
            api.post(name, calls(name, 8, now))
        for i in range(tabs):
            browser.open(names[i % lists])
        for name in names:
            run_list(browser, api, name, now, missed_follower=(lists == 1))
        one_stream_each(api, lists, f"{tabs} tabs over {lists} list(s)")
        if end and tabs > 1:
            name = names[0]
            leader = browser.leader(name)
            ended = time.monotonic()
            browser.end(leader, end)
            rest = browser.alive(browser.tabs_of(name))
            check(len(rest) >= 1, f"{name}: {len(rest)} tab(s) left after the leader's {end}")
            if rest:
                # Polled tab by tab: an upper bound on when the next tab took the stream over.
                led = wait(lambda: any(browser.js(i, "return window.recentsPage.state.leading") for i in rest), 2)
                took = time.monotonic() - ended
                check(led, f"{name}: another tab leads within 2 s of the leader's {end} "
                           f"({'%.0f ms' % (took * 1000) if led else 'none'})")
                shown_everywhere(browser, api, name, rest, f"{name}-after-0", 3, calls(f"{name}-after", 1, now + 10),
                                 f"{name}, the leader tab's {'closed' if end == 'close' else 'renderer crashed'}")
                one_stream_each(api, lists, f"after the leader's {end}")
    finally:
        browser.quit()
    wait(lambda: streams(api) == 0, 10)


RUNS = {
    "1": dict(tabs=1, lists=1, end=None),
    "6": dict(tabs=6, lists=1, end="close"),
    "12": dict(tabs=12, lists=1, end="close"),
    "12crash": dict(tabs=12, lists=1, end="crash"),
    "3x12": dict(tabs=12, lists=3, end="close"),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=os.path.join(web.ROOT, ".build/debug/recents"))
    parser.add_argument("--runs", default=",".join(RUNS), help="which runs, of " + ", ".join(RUNS))
    args = parser.parse_args()
    if web.skipped_without_browser("check-web-tabs"):
        return 0
    workdir = tempfile.mkdtemp(prefix="recents-tabs-")
    proc, base = web.start_server(os.path.abspath(args.binary), workdir)
    api = web.API(base)
    try:
        print(f"server at {base} (plain HTTP/1.1: six connections per host)", flush=True)
        for key in args.runs.split(","):
            r = RUNS[key]
            print(f"-- {r['tabs']} tab(s), {r['lists']} list(s)" + (f", leader {r['end']}" if r["end"] else ""), flush=True)
            run(base, api, r["tabs"], r["lists"], r["end"], time.time(), f"t{key}")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)
    if web.failures:
        print(f"check-web-tabs: {len(web.failures)} check(s) failed")
        return 1
    print("check-web-tabs: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
