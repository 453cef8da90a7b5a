#!/usr/bin/env python3
"""A development server for Web/: serves the folder's files (with the headers the binary sends) and
proxies /v1/* and /healthz to a running `recents serve`, streaming answers so the event stream and
long-polls work. Edit a file, reload the page; no rebuild.

usage: scripts/web-dev-server.py [--port 8081] [--upstream http://127.0.0.1:8080]
"""
import argparse
import http.client
import http.server
import os
import socketserver
import sys
import urllib.parse

WEB = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Web")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-authorization"}


def handler(upstream):
    target = urllib.parse.urlsplit(upstream)

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
            if path.startswith("/v1/") or path == "/healthz":
                return self.proxy()
            name = "index.html" if path == "/" else path.lstrip("/")
            file = os.path.realpath(os.path.join(WEB, name))
            if not file.startswith(WEB + os.sep) or not os.path.isfile(file):
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = open(file, "rb").read()
            self.send_response(200)
            self.send_header("Content-Type", TYPES.get(os.path.splitext(file)[1], "application/octet-stream"))
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Content-Security-Policy", "default-src 'self'")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

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


def serve(port, upstream):
    """Starts the server on 127.0.0.1:port (0: a free port); returns it (call serve_forever)."""
    return Server(("127.0.0.1", port), handler(upstream))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--upstream", default="http://127.0.0.1:8080")
    args = parser.parse_args()
    server = serve(args.port, args.upstream)
    print(f"serving {WEB} on http://127.0.0.1:{server.server_address[1]}/ (API: {args.upstream})", file=sys.stderr)
    server.serve_forever()
