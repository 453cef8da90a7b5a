#!/usr/bin/env python3
"""Tests the page at `/` in its reader's language and theme, in headless Chromium (issue 44).

Chromium set to German and to Japanese (`--lang` and its Accept-Language) with a dark system theme
(CDP Emulation.setEmulatedMedia), and to British English in the light theme:
- the first frame that shows rows already shows them in the reader's language and theme: a probe
  injected before the page's own scripts (CDP Page.addScriptToEvaluateOnNewDocument) records the
  visible text and the background at every animation frame (each runs just before a paint) until
  the page is ready; no frame carries an English-only word, and the first frame with rows shows
  exactly the rows of GET rows as Python writes them in that locale, on that theme's background;
- the rows the server rendered, put into the language by Web/locale.js before the first paint, are
  kept by the page and equal what row-markup.js renders in that language;
- Edit/Done, the sheet, the offline label and a notice (a delete another device overtook) in German;
- axe-core (PyPI's axe-selenium-python) over the list, a revealed row, the delete sheet, the call
  info view and edit mode, light and dark, also under `prefers-contrast: more`: no serious or critical violation;
and saves docs/screenshots/dark.png and german.png (same window as check-web.py's).

usage: scripts/check-web-locale.py [path/to/recents] [--no-shots]   (default .build/debug/recents)
Helpers (server, browser, page, seed, expected rows) are scripts/check-web.py's.
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


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


web = load("checkweb", "check-web.py")
check = web.check

GERMAN = dict(lang="de-DE", status={"missed": "Verpasst", "incoming": "Eingehend", "outgoing": "Ausgehend"},
              yesterday="Gestern", time="%H:%M", date="%d.%m.%y",
              weekdays=["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"],
              edit="Bearbeiten", done="Fertig", clear="Leeren", confirm="Anruf mit {name} löschen?",
              sheet=["Für mich löschen", "Für alle löschen", "Abbrechen"],
              offline="Offline: 1 Änderung wartet auf das Senden",
              notice="{name} ließ sich nicht löschen: auf einem anderen Gerät geändert")
JAPANESE = dict(lang="ja-JP", status={"missed": "不在着信", "incoming": "着信", "outgoing": "発信"},
                yesterday="昨日", time="%-H:%M", date="%Y/%m/%d",
                weekdays=["月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日", "日曜日"],
                edit="編集", confirm="{name}との通話を削除しますか？", sheet=["自分のみ削除", "全員から削除", "キャンセル"])
BACKGROUND = {"dark": "rgb(0, 0, 0)", "light": "rgb(255, 255, 255)"}

# Injected into every new document before the page's scripts: what each frame shows, recorded in the
# animation-frame callback that precedes its paint, until `window.__stopFrames`.
FRAMES = r"""
window.__frames = [];
(() => {
  const cell = (li, sel) => li.querySelector(sel);
  const frame = () => {
    const body = document.body;
    if (body) {
      const rows = [...document.querySelectorAll('#rows > li.row:not(.leaving)')];
      const shown = getComputedStyle(body).visibility !== 'hidden';
      window.__frames.push({
        t: performance.now(), shown, text: shown ? body.innerText : '',
        rows: shown ? rows.map((li) => [li.dataset.id, cell(li, '.row-name').textContent,
          cell(li, '.row-name').classList.contains('missed'), cell(li, '.row-status-text').textContent,
          cell(li, '.glyph').dataset.kind, cell(li, '.row-time').textContent]) : [],
        background: getComputedStyle(document.documentElement).backgroundColor,
        rowBackground: rows.length ? getComputedStyle(cell(rows[0], '.row-content')).backgroundColor : null,
      });
    }
    if (!window.__stopFrames && window.__frames.length < 2000) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
"""

# The page's rows against row-markup.js in the reader's language; and whether they are the server's nodes.
SAME_AS_PAGE = """
const done = arguments[0];
(async () => {
  const { readerLocale } = await import('./format.js');
  const { rowHTML } = await import('./row-markup.js');
  const page = window.recentsPage;
  const locale = readerLocale(window);
  const options = {tz: page.state.shownView.tz, now: Date.now() / 1000, buttonWidth: page.sync.rules.gesture.buttonWidth, locale};
  const nodes = [...document.querySelectorAll('#rows > li.row')];
  const t = document.createElement('template');
  const made = (row) => { t.innerHTML = rowHTML(row, options); return t.content.firstElementChild.outerHTML; };
  const differ = page.state.rows.filter((row, i) => nodes[i]?.outerHTML !== made(row)).map((r) => r.id);
  const first = page.state.rows.findIndex((row, i) => nodes[i]?.outerHTML !== made(row));
  const example = first < 0 ? null : [nodes[first]?.outerHTML, made(page.state.rows[first])];
  done({adopted: page.metrics.adopted, count: nodes.length, differ, lang: document.documentElement.lang, example});
})().catch((e) => done({error: String(e)}));
"""


def media(driver, scheme, contrast="no-preference"):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": scheme}, {"name": "prefers-contrast", "value": contrast}]})


def english_only(page, spec):
    """Words of the page's English that the language of `spec` does not also use (its table, read from
    the page), English weekdays, yesterday and AM/PM."""
    tables = page.js("const w = window.recentsLocale.words; return [w.en, w[arguments[0]]]", spec["lang"][:2])

    def tokens(value):
        if isinstance(value, dict):
            return set().union(*(tokens(v) for v in value.values()))
        # Without the slots' names (`{name}`), which no one reads.
        return {t.lower() for t in re.findall(r"[A-Za-z']+", re.sub(r"\{\w+\}", "", value))}

    english = tokens(tables[0]) | {w.lower() for w in web.ENGLISH["weekdays"]} | {"yesterday", "am", "pm"}
    return english - tokens(tables[1])


def load_frames(page, api, spec, scheme, name):
    """One navigation: the frames until the page is ready, checked for language and theme."""
    page.open(name)
    page.settled(api, name)
    page.js("window.__stopFrames = true")
    frames = page.js("return window.__frames")
    tz = page.js("return JSON.parse(document.getElementById('recents-initial').textContent).view.tz")
    with_rows = [f for f in frames if f["shown"] and f["rows"]]
    first = with_rows[0] if with_rows else None
    truth = api.call("GET", f"/v1/lists/{name}/rows?filter=all&limit=50&tz={tz}")[1]
    expected = web.expected_dom(truth["rows"], time.time(), tz, spec)
    return frames, first, expected, tz


def check_frames(page, api, spec, scheme, name, visit):
    frames, first, expected, tz = load_frames(page, api, spec, scheme, name)
    label = f"{spec['lang']}, {scheme}, {visit}"
    check(first is not None and first["rows"] == expected,
          f"{label}: the first frame with rows ({first and round(first['t'])} ms) shows GET rows in {spec['lang']} "
          f"(zone {tz}): {first and [r[3] + ' ' + r[5] for r in first['rows']][:4]}",
          (first and first["rows"], expected))
    check(first is not None and first["background"] == first["rowBackground"] == BACKGROUND[scheme],
          f"{label}: that frame is on the {scheme} background", first and (first["background"], first["rowBackground"]))
    if spec["lang"].startswith("en"):
        return
    foreign = english_only(page, spec)
    english = [(round(f["t"]), sorted(foreign & {t.lower() for t in re.findall(r"[A-Za-z']+", f["text"])}))
               for f in frames if f["shown"]]
    english = [e for e in english if e[1]]
    check(not english and len(frames) > 1,
          f"{label}: no English word in any of {sum(f['shown'] for f in frames)} painted frames", english[:3])


def adopted(page, spec):
    same = page.d.execute_async_script(SAME_AS_PAGE)
    check(same.get("adopted") is True and same.get("count", 0) > 0 and same.get("differ") == []
          and same.get("lang") == spec["lang"],
          f"{spec['lang']}: the page keeps the server's rows, localized before the first paint, and they equal "
          f"row-markup.js's rows in {spec['lang']} ({same.get('count')} rows)", same)


def open_sheet(page, row_id):
    page.drag(row_id, -240, steps=12, step_ms=30, hold_ms=100)
    return page.wait(lambda: page.js("return document.getElementById('sheet').open"), timeout=5)


def sheet_words(page, api, spec, name, row):
    opened = open_sheet(page, row["id"])
    shown = page.js("const s = document.getElementById('sheet'); return [s.querySelector('#sheet-title').textContent, "
                    "...[...s.querySelectorAll('.sheet-button')].map(b => b.textContent)]")
    check(opened and shown == [spec["confirm"].format(name=row["peer"]["name"])] + spec["sheet"],
          f"{spec['lang']}: the delete sheet speaks it: {shown}", shown)
    page.d.find_element(web.By.CSS_SELECTOR, '#sheet button[value="cancel"]').click()
    page.wait(lambda: not page.js("return document.getElementById('sheet').open"))
    page.settled(api, name)


def german_actions(page, api, proxy, name):
    """Edit/Done, then a delete made offline that another device overtakes: the offline label, the row
    coming back and the notice (read out too), all in German."""
    page.d.find_element(web.By.ID, "edit").click()
    edit = page.wait(lambda: page.js("return document.getElementById('edit').textContent") == GERMAN["done"])
    clear = page.js("return document.getElementById('clear').textContent")
    page.d.find_element(web.By.ID, "edit").click()
    back = page.wait(lambda: page.js("return document.getElementById('edit').textContent") == GERMAN["edit"])
    check(edit and back and clear == GERMAN["clear"], f"de-DE: Bearbeiten → Fertig (and {clear!r}) → Bearbeiten")
    first, second = load("webnetwork", "check-web-network.py").same_day_pair(int(time.time()), web.TZ_MINUTES, 20)
    api.post(name, [dict(id="rb-1", peer=dict(id="rbpeer", name="Rita Black"), direction="incoming",
                         endReason="missed", timestamp=first)])
    page.settled(api, name)
    proxy.cut()
    page.wait(lambda: page.d.find_element(web.By.ID, "status").is_displayed(), timeout=10)
    if open_sheet(page, "rb-1"):
        page.d.find_element(web.By.CSS_SELECTOR, '#sheet button[value="me"]').click()
    waiting = page.wait(lambda: page.js("return document.getElementById('status').textContent") == GERMAN["offline"])
    status = page.js("return document.getElementById('status').textContent")
    api.post(name, [dict(id="rb-2", peer=dict(id="rbpeer", name="Rita Black"), direction="incoming",
                         endReason="missed", timestamp=second)])
    proxy.restore()
    noticed = page.wait(lambda: page.d.find_element(web.By.ID, "notice").is_displayed(), timeout=15)
    text, spoken = page.js("return [document.getElementById('notice').textContent, "
                           "document.getElementById('announcer').textContent]")
    check(waiting and noticed and text == spoken == GERMAN["notice"].format(name="Rita Black"),
          f"de-DE: offline it says {status!r}; the overtaken delete comes back with {text!r}, read out too",
          (status, text, spoken))
    page.settled(api, name)


def axe(page, api, source, name):
    """axe-core over five states of the page, each in light and dark, with and without more contrast."""
    def run(state):
        page.wait(lambda: page.js("return document.getAnimations().length === 0"))
        for scheme in ("light", "dark"):
            for contrast in ("no-preference", "more"):
                media(page.d, scheme, contrast)
                if not page.js("return typeof axe !== 'undefined'"):
                    page.js(source)
                found = page.d.execute_async_script(
                    "const done = arguments[0]; axe.run(document).then((r) => done(r.violations.filter("
                    "(v) => v.impact === 'serious' || v.impact === 'critical').map((v) => [v.id, v.impact, "
                    "v.nodes.length, v.nodes.slice(0, 3).map((n) => n.target.join(' '))])), (e) => done([['error', String(e)]]));")
                check(not found, f"axe: no serious or critical violation: {state}, {scheme}"
                      + (", more contrast" if contrast == "more" else ""), found)
        media(page.d, "light")

    page.open(name)
    page.settled(api, name)
    run("the list")
    rows = api.rows(name)["rows"]
    api.call("PUT", f"/v1/lists/{name}/rows/{rows[0]['id']}/reveal", {"revealed": True})
    page.settled(api, name)
    run("a revealed row")
    page.d.find_element(web.By.CSS_SELECTOR, f'li.row[data-id="{rows[0]["id"]}"] .row-delete').click()
    page.wait(lambda: page.js("return document.getElementById('sheet').open"))
    run("the delete sheet")
    page.d.find_element(web.By.CSS_SELECTOR, '#sheet button[value="cancel"]').click()
    page.wait(lambda: not page.js("return document.getElementById('sheet').open"))
    page.d.find_element(web.By.CSS_SELECTOR, f'li.row[data-id="{rows[0]["id"]}"] .row-info').click()
    page.wait(lambda: page.js("return document.querySelectorAll('#call-info .call-line').length > 0"))
    run("the call info view")
    page.d.find_element(web.By.CSS_SELECTOR, "#call-info .call-info-close").click()
    page.wait(lambda: not page.js("return document.getElementById('call-info').open"))
    api.call("PUT", f"/v1/lists/{name}/editing", {"editing": True})
    page.settled(api, name)
    run("edit mode")
    api.call("PUT", f"/v1/lists/{name}/editing", {"editing": False})
    page.settled(api, name)


def axe_source():
    try:
        import axe_selenium_python
    except ImportError:
        return None
    with open(os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")) as f:
        return f.read()


def session(env, base, spec, scheme):
    driver = web.new_driver(env, spec["lang"])
    media(driver, scheme)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FRAMES})
    return web.Page(driver, base)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=os.path.join(os.path.dirname(HERE), ".build/debug/recents"))
    parser.add_argument("--no-shots", action="store_true", help="leave docs/screenshots as they are")
    args = parser.parse_args()
    if web.webdriver is None or not shutil.which("chromium") or not shutil.which("chromedriver"):
        print("check-web-locale: skipped (chromium, chromedriver or selenium not installed; .ci/run installs them)")
        return 0
    workdir = tempfile.mkdtemp(prefix="recents-locale-")
    proc, base = web.start_server(os.path.abspath(args.binary), workdir)
    proxy = load("delayproxy", "delay-proxy.py").DelayProxy(int(base.rsplit(":", 1)[1]), 0).start()
    env = dict(os.environ, TZ=web.TZ_NAME)
    api = web.API(base)
    pages = []
    try:
        now = time.time()
        web.seed(api, now)
        api.post("alice", [dict(id="c-8", peer=dict(id="heidi", name="Heidi Klum"), direction="incoming",
                                timestamp=int(now) - 366 * 86400)])
        for spec, scheme in ((GERMAN, "dark"), (JAPANESE, "dark"), (web.ENGLISH, "light")):
            page = session(env, f"http://127.0.0.1:{proxy.port}", spec, scheme)
            pages.append(page)
            check_frames(page, api, spec, scheme, "alice", "first visit (the server's zone is UTC)")
            check_frames(page, api, spec, scheme, "alice", "second visit (in the browser's zone)")
            adopted(page, spec)
            if spec is web.ENGLISH:
                continue
            sheet_words(page, api, spec, "alice", api.rows("alice")["rows"][1])
            if spec is GERMAN:
                german_actions(page, api, proxy, "alice")
                source = axe_source()
                check(source is not None, "axe-core is installed (pip install axe-selenium-python)")
                if source:
                    axe(page, api, source, "alice")
        if not args.no_shots:
            shots(env, base, api)
    finally:
        for page in pages:
            page.d.quit()
        proxy.stop()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)
    if web.failures:
        print(f"check-web-locale: {len(web.failures)} check(s) failed")
        return 1
    print("check-web-locale: all checks passed")
    return 0


def shots(env, base, api):
    """docs/screenshots/dark.png (the list at night, English) and german.png (German, a row open)."""
    for spec, scheme, file in ((web.ENGLISH, "dark", "dark.png"), (GERMAN, "light", "german.png")):
        page = session(env, base, spec, scheme)
        try:
            page.open("alice")
            page.settled(api, "alice")
            if spec is GERMAN:
                row = api.rows("alice")["rows"][0]["id"]
                api.call("PUT", f"/v1/lists/alice/rows/{row}/reveal", {"revealed": True})
                page.settled(api, "alice")
            page.shot(file)
            if spec is GERMAN:
                api.call("PUT", f"/v1/lists/alice/rows/{row}/reveal", {"revealed": False})
        finally:
            page.d.quit()
    print(f"screenshots: docs/screenshots/dark.png, german.png", flush=True)


if __name__ == "__main__":
    sys.exit(main())
