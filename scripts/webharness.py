"""The harness of scripts/check-web.py and the web checks that load it: the server, Chromium through
Selenium, the page's driver (`Page`), the API beside it, seeded calls and the rows the page must show.

Not a script: imported by check-web.py and webscenarios.py (check-web-locale.py and check-web-tabs.py
reach it through check-web.py).
"""
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTS = os.path.join(ROOT, "docs", "screenshots")
TZ_NAME, TZ_MINUTES = "Asia/Kolkata", 330  # a zone off UTC, so the `tz` view parameter matters
# The page speaks the browser's language (Web/locale.js). These checks run Chromium in British English:
# the page's English words, with dates Python writes as the locale does (24-hour times, dd/mm/yyyy).
# scripts/check-web-locale.py adds its own languages in this shape.
ENGLISH = dict(lang="en-GB", status={"missed": "Missed", "incoming": "Incoming", "outgoing": "Outgoing"},
               yesterday="Yesterday", time="%H:%M", date="%d/%m/%Y",
               weekdays=["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"])

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.by import By
except ImportError:
    webdriver = None

figures = {}
failures = []


def check(condition, message, detail=None):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    if not condition and detail is not None:
        print(f"     {detail}", flush=True)
    if not condition:
        failures.append(message)


def figure(label, value, target):
    """A measured figure against its target: printed, and not a failure (the machines are shared and
    noisy; Benchmarks/RESULTS.md reports them with the load they were measured under)."""
    verdict = "meets" if value is not None and value <= target else "MISSES"
    print(f"fig  {label}: {value if value is None else round(value, 1)} ms ({verdict} the target ≤ {target} ms)",
          flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class API:
    """curl-equivalent requests to the server."""

    def __init__(self, base):
        self.base = base

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=10) as res:
                return res.status, json.loads(res.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

    def rows(self, list_name, filter_="all", limit=50):
        return self.call("GET", f"/v1/lists/{list_name}/rows?filter={filter_}&limit={limit}&tz={TZ_MINUTES}")[1]

    def post(self, list_name, calls):
        status, body = self.call("POST", f"/v1/lists/{list_name}/calls", {"calls": calls})
        assert status in (200, 201), body
        return body


def row_time(ts, now, tz=TZ_MINUTES, spec=ENGLISH):
    """A row's time as the page writes it in the language of `spec`, in the zone `tz` (minutes east)."""
    day = lambda s: (s + tz * 60) // 86400
    local = time.gmtime(ts + tz * 60)
    days = day(int(now)) - day(ts)
    if days == 0:
        return time.strftime(spec["time"], local)
    if days == 1:
        return spec["yesterday"]
    if 1 < days < 7:
        return spec["weekdays"][local.tm_wday]
    return time.strftime(spec["date"], local)


def expected_dom(rows, now, tz=TZ_MINUTES, spec=ENGLISH):
    out = []
    for r in rows:
        name = r["peer"]["name"] + (f" ({r['count']})" if r["count"] > 1 else "")
        key = "missed" if r["missed"] else ("outgoing" if r["status"] == "outgoing" else "incoming")
        out.append([r["id"], name, r["missed"], spec["status"][key], "video" if r["video"] else "phone",
                    row_time(r["timestamp"], now, tz, spec)])
    return out


DOM_ROWS = """
return [...document.querySelectorAll('#rows > li.row:not(.leaving)')].map(li => [
  li.dataset.id, li.querySelector('.row-name').textContent, li.querySelector('.row-name').classList.contains('missed'),
  li.querySelector('.row-status-text').textContent, li.querySelector('.glyph').dataset.kind,
  li.querySelector('.row-time').textContent]);
"""


def seed(api, now):
    """Alice's list, and the peers' own copies of the same calls (for Delete for everyone)."""
    now = int(now)
    calls = [
        dict(id="c-1", peer=dict(id="bob", name="Bob Lee"), direction="incoming", endReason="missed", timestamp=now - 700),
        dict(id="c-2", peer=dict(id="bob", name="Bob Lee"), direction="incoming", endReason="missed", timestamp=now - 600),
        dict(id="c-3", peer=dict(id="carol", name="Carol Diaz"), direction="outgoing", video=True, duration=312,
             timestamp=now - 86400),
        dict(id="c-4", peer=dict(id="dave", name="Dave"), direction="incoming", duration=40, timestamp=now - 3 * 86400),
        dict(id="c-5", peer=dict(id="erin", name="Erin Wu"), direction="outgoing", timestamp=now - 10 * 86400),
        dict(id="c-6", peer=dict(id="frank", name="Frank"), direction="incoming", endReason="missed", video=True,
             timestamp=now - 2 * 86400),
        dict(id="c-7", peer=dict(id="grace", name="Grace Hopper"), direction="outgoing", timestamp=now - 300),
    ]
    api.post("alice", calls)
    for c in calls:
        mirror = dict(c, peer=dict(id="alice", name="Alice"),
                      direction="outgoing" if c["direction"] == "incoming" else "incoming")
        api.post(c["peer"]["id"], [mirror])
    return calls


class Page:
    def __init__(self, driver, base):
        self.d = driver
        self.base = base

    def open(self, list_name, extra=""):
        self.d.get(f"{self.base}/?list={list_name}{extra}")
        self.wait(lambda: self.js("return !!window.recentsPage && window.recentsPage.state.version !== null"))

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def wait(self, predicate, timeout=5.0, message="condition"):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                if predicate():
                    return True
            except Exception:
                pass
            time.sleep(0.02)
        return False

    def dom(self):
        return self.js(DOM_ROWS)

    def version(self):
        return self.js("return window.recentsPage.state.version")

    def settled(self, api, list_name, filter_="all"):
        """Waits until the page shows the list's current version and its animations ended. The version
        is read again while it waits: the page's own writes move it too (its seen mark, sent when it
        shows a missed call while it is visible and focused)."""
        truth = [api.rows(list_name, filter_)]

        def done():
            if self.version() != truth[0]["version"]:
                truth[0] = api.rows(list_name, filter_)
                return False
            return self.js("const s = window.recentsPage.state;"
                           "return !s.busy && !s.pending && document.getAnimations().length === 0")
        ok = self.wait(done)
        return ok, truth[0]

    def row(self, row_id):
        return self.d.find_element(By.CSS_SELECTOR, f'li.row[data-id="{row_id}"] .row-content')

    def offset(self, row_id):
        return self.js(f'return Number(document.querySelector(\'li.row[data-id="{row_id}"]\').dataset.offset)')

    def drag(self, row_id, dx, steps, step_ms, hold_ms=0):
        """A real touch drag on a row: down at its centre, `steps` moves to dx, optional hold, up."""
        # Viewport coordinates, taken once: the row's content moves under the finger.
        rect = self.js("const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]",
                       self.row(row_id))
        x, y = round(rect[0]) + 40, round(rect[1])
        actions = ActionBuilder(self.d, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"), duration=0)
        p = actions.pointer_action
        p.move_to_location(x, y)
        p.pointer_down()
        for i in range(1, steps + 1):
            p.move_to_location(x + round(dx * i / steps), y)
            p.pause(step_ms / 1000)
        if hold_ms:
            p.pause(hold_ms / 1000)
        p.pointer_up()
        actions.perform()

    def shot(self, name):
        self.wait(lambda: self.js("return document.getAnimations().length === 0"))
        os.makedirs(SHOTS, exist_ok=True)
        self.d.save_screenshot(os.path.join(SHOTS, name))


def new_driver(service_env, lang=ENGLISH["lang"], page_load_strategy=None):
    """Headless Chromium whose reader speaks `lang` (navigator.languages and Accept-Language)."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    if page_load_strategy:  # "none": get() returns at once (a tab that cannot load does not block the driver)
        options.page_load_strategy = page_load_strategy
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.add_argument(f"--lang={lang}")
    options.add_experimental_option("prefs", {"intl.accept_languages": lang})
    # BackForwardCache off: every measured load is a load, not a restore of a frozen page (which
    # also keeps that page's open event stream, one of the six connections per host, busy).
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=400,760",
                "--disable-extensions", "--no-first-run", "--disable-features=BackForwardCache", "--force-device-scale-factor=2"):
        options.add_argument(arg)
    service = Service(executable_path=shutil.which("chromedriver"), env=service_env)
    return webdriver.Chrome(service=service, options=options)


def start_server(binary, workdir, port=None):
    port = port or free_port()
    log = open(os.path.join(workdir, "server.log"), "a")
    proc = subprocess.Popen([binary, "serve", "--db", os.path.join(workdir, "db.sqlite"), "--host", "127.0.0.1",
                             "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            return proc, base
        except Exception:
            time.sleep(0.05)
    proc.kill()
    sys.exit(f"the server did not start: see {log.name}")


def serves(url):
    try:
        with urllib.request.urlopen(url, timeout=2) as res:
            return res.status == 200
    except (urllib.error.HTTPError, urllib.error.URLError):
        return False


def inlines_first_view(base):
    """Whether the binary puts the first view into `/` (the last server piece of issue 22)."""
    try:
        with urllib.request.urlopen(base + "/?list=check-web-probe", timeout=2) as res:
            return b'id="recents-initial"' in res.read()
    except (urllib.error.HTTPError, urllib.error.URLError):
        return False


def page_base(base, mode, inline_css=False, web=None):
    """The binary's own `/`, or Web/ served by the dev server in front of it. `auto`: the binary when it
    puts the first view into `/`, else the dev server standing in for what it lacks of issue 22."""
    if mode == "binary" or (mode == "auto" and inlines_first_view(base)):
        return base, "binary"
    if mode == "auto" and not serves(base + "/"):
        mode = "dev"
    spec = importlib.util.spec_from_file_location("devserver", os.path.join(ROOT, "scripts", "web-dev-server.py"))
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    emulate = mode in ("auto", "emulate")
    server = dev.serve(0, base, emulate=emulate, inline_css=inline_css, web=web)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    what = ("dev server (Web/, standing in for the first view in / and hashed paths, and for /v1/rules if the "
            "server has none)") if emulate else "dev server (Web/)"
    what += ", style.css inlined" if inline_css else ""
    what += f", serving {web}" if web else ""
    return f"http://127.0.0.1:{server.server_address[1]}", what




def skipped_without_browser(script):
    """Says in one line that `script` is skipped when Chromium, its driver or Selenium is missing."""
    missing = [n for n in ("chromium", "chromedriver") if not shutil.which(n)] + ([] if webdriver else ["selenium"])
    if missing:
        print(f"{script}: skipped ({', '.join(missing)} not installed)")
    return bool(missing)


def load_network():
    spec = importlib.util.spec_from_file_location("webnetwork", os.path.join(ROOT, "scripts", "check-web-network.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_script(name):
    """Another file of checks under scripts/ (its name has dashes, so it is no importable module)."""
    spec = importlib.util.spec_from_file_location(name.removesuffix(".py").replace("-", "_"), os.path.join(ROOT, "scripts", name))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

