#!/usr/bin/env python3
"""A development server for Web/: serves the folder's files (with the headers the binary sends) and
proxies /v1/* and /healthz to a running `recents serve`, streaming answers so the event stream and
long-polls work. Edit a file, reload the page; no rebuild.

With --emulate it also stands in for the server's side of issue 22 until the binary has it: `GET
/v1/rules`, the first view inlined in `/` (the `#recents-initial` JSON and the rows in the markup of
Web/list-view.js, rendered by scripts/row-markup.py, in the zone of the `recents-tz` cookie), and
index.html's references rewritten to content-hashed paths served `immutable`.

usage: scripts/web-dev-server.py [--port 8081] [--upstream http://127.0.0.1:8080] [--emulate]
"""
import argparse
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


def content_hash(name):
    with open(os.path.join(WEB, name), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:10]


def hashed_index():
    """index.html with each relative reference to a file of Web/ renamed `name.<hash>.ext`."""
    with open(os.path.join(WEB, "index.html"), encoding="utf-8") as f:
        html = f.read()

    def rename(m):
        ref = m.group(2)
        if ":" in ref or ref.startswith("/") or not os.path.isfile(os.path.join(WEB, ref)):
            return m.group(0)
        stem, ext = os.path.splitext(ref)
        return f'{m.group(1)}="{stem}.{content_hash(ref)}{ext}"'

    return re.sub(r'(href|src)="([^"]+)"', rename, html)


def handler(upstream, emulate=False):
    target = urllib.parse.urlsplit(upstream)
    markup = load_markup() if emulate else None

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
            if emulate and path == "/v1/rules":
                return self.answer(json.dumps(RULES).encode(), ".json", "public, max-age=300")
            if path.startswith("/v1/") or path == "/healthz":
                return self.proxy()
            if emulate and path == "/":
                return self.answer(self.first_view().encode(), ".html", "no-cache")
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
            self.answer(open(file, "rb").read(), os.path.splitext(file)[1], cache)

        def answer(self, body, ext, cache):
            self.send_response(200)
            self.send_header("Content-Type", TYPES.get(ext, "application/octet-stream"))
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", cache)
            self.send_header("Content-Security-Policy", "default-src 'self'")
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
            initial = {"list": name, "rules": RULES, "view": {"filter": "all", "limit": 50, "tz": tz},
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


def serve(port, upstream, emulate=False):
    """Starts the server on 127.0.0.1:port (0: a free port); returns it (call serve_forever)."""
    return Server(("127.0.0.1", port), handler(upstream, emulate))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--upstream", default="http://127.0.0.1:8080")
    parser.add_argument("--emulate", action="store_true", help="stand in for /v1/rules, the inlined first view, hashed paths")
    args = parser.parse_args()
    server = serve(args.port, args.upstream, args.emulate)
    print(f"serving {WEB} on http://127.0.0.1:{server.server_address[1]}/ (API: {args.upstream})", file=sys.stderr)
    server.serve_forever()
