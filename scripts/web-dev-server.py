#!/usr/bin/env python3
"""A development server for Web/: serves the folder's files (with the headers the binary sends) and
proxies /v1/* and /healthz to a running `recents serve`, streaming answers so the event stream and
long-polls work. Edit a file, reload the page; no rebuild.

With --emulate it also stands in for the server's side of issue 22 until the binary has it: `GET
/v1/rules` (only when the server has none), the first view inlined in `/` (the `#recents-initial`
JSON and the rows in the markup of Web/list-view.js, rendered by scripts/row-markup.py, in the zone
of the `recents-tz` cookie), and references rewritten to content-hashed paths served `immutable`.

--inline-css (with --emulate) puts style.css into the page as a `<style>` allowed by its hash in the
Content-Security-Policy, so a first visit needs no second request before it can paint.

usage: scripts/web-dev-server.py [--port 8081] [--upstream http://127.0.0.1:8080] [--emulate [--inline-css]] [--web DIR]
"""
import argparse
import base64
import hashlib
import http.client
import http.cookies
import http.server
import importlib.util
import json
import os
import re
import socketserver
import sys
import time
import urllib.parse

WEB = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Web")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".json": "application/json; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-authorization"}
RULES = {"gesture": {"buttonWidth": 74, "slowVelocity": 100, "buttonMarginMaxOptions": 2, "fullSwipeMargin": 16},
         "rowOptions": [{"key": "delete", "title": "Delete", "destructive": True}]}
HASHED = re.compile(r"^(.+)\.([0-9a-f]{10})(\.[A-Za-z0-9]+)$")


def load_markup():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rowmarkup", os.path.join(here, "row-markup.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The references a file makes to other files of Web/: imports in modules, url() in stylesheets,
# href/src in the page. Each is renamed to the other file's hashed name, so a file's hash covers
# what it loads (a module's name changes when a module it imports changes).
REFERENCES = {
    ".js": re.compile(r"""((?:\bfrom|\bimport)\s*\(?\s*['"])(\.{0,2}/?[^'"]+\.js)(['"])"""),
    ".css": re.compile(r"""(url\(\s*['"]?)([^'")]+)(['"]?\s*\))"""),
    ".html": re.compile(r"""((?:href|src)=")([^"]+)(")"""),
}


_cache = {"stamp": None, "files": {}}


def _fresh():
    """Forgets rewritten files when any file of Web/ changed (edit, reload: no restart)."""
    stamp = tuple(sorted((e.path, e.stat().st_mtime_ns) for e in os.scandir(WEB) if e.is_file()))
    if stamp != _cache["stamp"]:
        _cache["stamp"] = stamp
        _cache["files"] = {}
    return _cache["files"]


def rewritten(name):
    """The bytes of Web/`name` with its references to other files renamed to their hashed names."""
    files = _fresh()
    if name not in files:
        files[name] = _rewrite(name)
    return files[name]


def _rewrite(name):
    with open(os.path.join(WEB, name), "rb") as f:
        data = f.read()
    pattern = REFERENCES.get(os.path.splitext(name)[1])
    if pattern is None:
        return data
    base = os.path.dirname(name)

    def rename(m):
        ref = m.group(2)
        target = os.path.normpath(os.path.join(base, ref))
        if ":" in ref or ref.startswith("/") or not os.path.isfile(os.path.join(WEB, target)):
            return m.group(0)
        stem, ext = os.path.splitext(ref)
        return f"{m.group(1)}{stem}.{content_hash(target)}{ext}{m.group(3)}"

    return pattern.sub(rename, data.decode("utf-8")).encode("utf-8")


def content_hash(name):
    return hashlib.sha256(rewritten(name)).hexdigest()[:10]


def hashed_index():
    """index.html with each relative reference to a file of Web/ renamed `name.<hash>.ext`."""
    return rewritten("index.html").decode("utf-8")


def inline_stylesheet(html):
    """The page with its stylesheet inside it (a `<style>`), and the CSP hash that allows exactly that."""
    m = re.search(r'<link rel="stylesheet" href="([^"]+)">', html)
    name = HASHED.sub(r"\1\3", m.group(1)) if m else None
    if not name or not os.path.isfile(os.path.join(WEB, name)):
        return html, None
    css = rewritten(name).decode("utf-8")
    digest = base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode()
    return html.replace(m.group(0), f"<style>{css}</style>", 1), f"'sha256-{digest}'"


def upstream_rules(target):
    """The upstream's `GET /v1/rules` (JSON), or None when it has none yet."""
    conn = http.client.HTTPConnection(target.hostname, target.port, timeout=5)
    try:
        conn.request("GET", "/v1/rules")
        res = conn.getresponse()
        body = res.read()
        return json.loads(body) if res.status == 200 else None
    except (OSError, ValueError):
        return None
    finally:
        conn.close()


def handler(upstream, emulate=False, inline_css=False):
    target = urllib.parse.urlsplit(upstream)
    markup = load_markup() if emulate else None
    # Stand in for /v1/rules only where the server has none.
    rules = upstream_rules(target) if emulate else None
    emulate_rules = emulate and rules is None
    rules = rules or RULES

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            self.route()

        def do_HEAD(self):
            self.route()

        def do_POST(self):
            self.route()

        def do_PUT(self):
            self.route()

        def do_DELETE(self):
            self.route()

        def route(self):
            path = urllib.parse.urlsplit(self.path).path
            if emulate_rules and path == "/v1/rules":
                return self.answer(json.dumps(RULES).encode(), ".json", "public, max-age=300")
            if path.startswith("/v1/") or path == "/healthz":
                return self.proxy()
            if emulate and path == "/":
                html, style = self.first_view(), None
                if inline_css:
                    html, style = inline_stylesheet(html)
                return self.answer(html.encode(), ".html", "no-cache", style)
            name = "index.html" if path == "/" else path.lstrip("/")
            cache = "no-cache"
            hashed = HASHED.match(name) if emulate else None
            if hashed and os.path.isfile(os.path.join(WEB, hashed.group(1) + hashed.group(3))):
                name = hashed.group(1) + hashed.group(3)
                cache = "public, max-age=31536000, immutable"
            file = os.path.realpath(os.path.join(WEB, name))
            if not file.startswith(WEB + os.sep) or not os.path.isfile(file):
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = rewritten(name) if hashed else open(file, "rb").read()
            self.answer(body, os.path.splitext(file)[1], cache)

        def answer(self, body, ext, cache, style_hash=None):
            self.send_response(200)
            self.send_header("Content-Type", TYPES.get(ext, "application/octet-stream"))
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", cache)
            csp = "default-src 'self'" + (f"; style-src 'self' {style_hash}" if style_hash else "")
            self.send_header("Content-Security-Policy", csp)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def first_view(self):
            """index.html with the list's first view in it, as the server puts it there (auth off)."""
            html = hashed_index()
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
            name = (query.get("list") or ["demo"])[0]
            cookie = http.cookies.SimpleCookie(self.headers.get("Cookie") or "")
            try:
                tz = max(-840, min(840, int(cookie["recents-tz"].value))) if "recents-tz" in cookie else 0
            except ValueError:
                tz = 0
            conn = http.client.HTTPConnection(target.hostname, target.port, timeout=10)
            try:
                conn.request("GET", f"/v1/lists/{urllib.parse.quote(name)}/transitions?limit=50&tz={tz}")
                res = conn.getresponse()
                body = res.read()
            except OSError:
                return html
            finally:
                conn.close()
            if res.status != 200:
                return html
            transition = json.loads(body)
            initial = {"list": name, "rules": rules, "view": {"filter": "all", "limit": 50, "tz": tz},
                       "transition": transition}
            data = json.dumps(initial, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
            rows = [i["row"] for i in transition["inserts"]]
            ul = markup.list_html(rows, transition["editing"], tz, time.time())
            html = html.replace('<ul id="rows" class="rows" aria-label="Calls"></ul>', ul, 1)
            script = f'<script type="application/json" id="recents-initial">{data}</script>\n'
            return html.replace("</head>", script + "</head>", 1)

        def proxy(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            conn = http.client.HTTPConnection(target.hostname, target.port, timeout=120)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP and k.lower() != "host"}
            conn.request(self.command, self.path, body=body, headers=headers)
            res = conn.getresponse()
            self.send_response(res.status)
            chunked = res.getheader("Content-Length") is None and self.command != "HEAD" and res.status not in (204, 304)
            for k, v in res.getheaders():
                if k.lower() not in HOP:
                    self.send_header(k, v)
            if chunked:
                self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            while True:
                data = res.read1(65536) if chunked else res.read()
                if not data:
                    break
                if chunked:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    self.wfile.flush()
                else:
                    self.wfile.write(data)
                    break
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
            conn.close()

    return Handler


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A browser that closes a held long-poll or stream is normal here, not worth a traceback.
        pass


def serve(port, upstream, emulate=False, inline_css=False, web=None):
    """Starts the server on 127.0.0.1:port (0: a free port); returns it (call serve_forever).
    `web`: another copy of Web/ to serve (an older page, to measure it the same way)."""
    global WEB
    if web:
        WEB = os.path.realpath(web)
    return Server(("127.0.0.1", port), handler(upstream, emulate, inline_css))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--upstream", default="http://127.0.0.1:8080")
    parser.add_argument("--emulate", action="store_true", help="stand in for /v1/rules, the inlined first view, hashed paths")
    parser.add_argument("--inline-css", action="store_true",
                        help="with --emulate: the stylesheet inside the page, allowed by its CSP hash")
    parser.add_argument("--web", help="serve this folder instead of Web/")
    args = parser.parse_args()
    server = serve(args.port, args.upstream, args.emulate, args.inline_css, args.web)
    print(f"serving {WEB} on http://127.0.0.1:{server.server_address[1]}/ (API: {args.upstream})", file=sys.stderr)
    server.serve_forever()
