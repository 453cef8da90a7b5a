#!/usr/bin/env python3
"""Tests the web client at `/` in headless Chromium with real input (WebDriver actions).

Starts `recents serve` on a free loopback port with a temporary database, drives Debian's
chromium through chromedriver and Selenium, checks the page against `GET rows`, saves the
screenshots of docs/screenshots/ and prints the figures of Benchmarks/RESULTS.md. When the binary
does not serve `/` yet, the page is served from Web/ by scripts/web-dev-server.py in front of it.

usage: scripts/check-web.py [path/to/recents] [--network-only] [--rtts 0,150,400] [--offline-at 150|none]
                            [--page auto|binary|dev|emulate] [--inline-css] [--web DIR]
(default .build/debug/recents). The network runs (scripts/check-web-network.py) put the page behind
scripts/delay-proxy.py at each round-trip time and run the offline step at one of them.
Skips (exit 0, one line) when chromium, chromedriver or selenium is missing.
"""
import argparse
import os
import signal
import sys
import tempfile
import types

# The harness and the checks live beside this driver; other checks load this file and use their names.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webharness import *  # noqa: E402,F401,F403
from webscenarios import *  # noqa: E402,F401,F403


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=os.path.join(ROOT, ".build/debug/recents"))
    parser.add_argument("--network-only", action="store_true", help="only the runs through the delaying proxy")
    parser.add_argument("--rtts", default="0,150,400", help="round-trip times of the network runs, in ms ('' for none)")
    parser.add_argument("--offline-at", default="150", help="the round-trip time of the offline step, or 'none'")
    parser.add_argument("--page", default="auto", choices=("auto", "binary", "dev", "emulate"),
                        help="who serves the page: the binary, or scripts/web-dev-server.py (emulate: with --emulate)")
    parser.add_argument("--inline-css", action="store_true", help="with the dev server standing in: style.css inlined")
    parser.add_argument("--web", help="serve this copy of Web/ through the dev server (e.g. an older page, to measure it)")
    return parser.parse_args()



def main():
    args = parse_args()
    binary = os.path.abspath(args.binary)
    missing = [n for n in ("chromium", "chromedriver") if not shutil.which(n)]
    if missing or webdriver is None:
        what = ", ".join(missing + ([] if webdriver else ["selenium"]))
        print(f"check-web: skipped ({what} not installed; .ci/run installs them)")
        return 0
    workdir = tempfile.mkdtemp(prefix="recents-web-")
    proc, api_base = start_server(binary, workdir)
    server = {"proc": proc}

    def outage(seconds):
        """Stops the server, waits, and starts it again on the same port and database."""
        server["proc"].send_signal(signal.SIGTERM)
        server["proc"].wait(timeout=10)
        time.sleep(seconds)
        server["proc"], _ = start_server(binary, workdir, int(api_base.rsplit(":", 1)[1]))

    drivers = []
    try:
        base, source = page_base(api_base, args.page, args.inline_css, args.web)
        print(f"page from the {source} at {base}; API at {api_base}", flush=True)
        env = dict(os.environ, TZ=TZ_NAME)
        driver = new_driver(env)
        drivers.append(driver)
        page = Page(driver, base)
        page.source = source
        page.outage = outage
        more_driver = lambda: drivers.append(new_driver(env)) or drivers[-1]
        if not args.network_only:
            run(page, API(api_base), more_driver)
        rtts = [int(x) for x in args.rtts.split(",") if x.strip()]
        if rtts:
            ctx = types.SimpleNamespace(
                api=API(api_base), Page=Page, new_driver=more_driver, check=check, expected_dom=expected_dom,
                figures=figures, page_port=int(base.rsplit(":", 1)[1]), direct_base=base,
                server_log=os.path.join(workdir, "server.log"), tz_minutes=TZ_MINUTES)
            offline_at = None if args.offline_at == "none" else int(args.offline_at)
            load_network().run_network(ctx, rtts, offline_at)
    finally:
        for d in drivers:
            try:
                d.quit()
            except Exception:
                pass  # already ended by its run
        server["proc"].send_signal(signal.SIGTERM)
        server["proc"].wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)
    print("figures: " + json.dumps(figures))
    if failures:
        print(f"check-web: {len(failures)} check(s) failed")
        return 1
    print("check-web: all checks passed")
    return 0




if __name__ == "__main__":
    sys.exit(main())
