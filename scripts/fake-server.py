#!/usr/bin/env python3
"""Tiny stand-in servers for scripts/check-cli.sh (and a sanity check of check-runtime-stage.sh).

usage: fake-server.py MODE PORTFILE [OUTDIR]
Binds 127.0.0.1 port 0 and writes the chosen port to PORTFILE, so callers never race for a port.
MODE: health-ok | health-chunked | health-bad | record (saves POST bodies to OUTDIR).
"""
import http.server
import json
import os
import sys

MODE, PORTFILE = sys.argv[1], sys.argv[2]
OUTDIR = sys.argv[3] if len(sys.argv) > 3 else None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    posts = 0
    version = 0

    def log_message(self, *args):
        pass

    def reply(self, status, body, chunked=False):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Connection", "close")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for piece in (body[:5], body[5:]):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        self.close_connection = True

    def do_GET(self):
        if MODE == "record" and self.path.startswith("/v1/lists/") and self.path.count("/") == 3:
            # `seed` reads the list's version first, to tell its own posts from replays of earlier ones.
            name = self.path.rsplit("/", 1)[1]
            summary = {"list": name, "epoch": "fake", "version": Handler.version, "editing": False,
                       "revealedRowId": None, "callCount": 0}
            self.reply(200, json.dumps(summary).encode())
        elif self.path != "/healthz":
            self.reply(404, b'{"status":404}')
        elif MODE == "health-ok":
            self.reply(200, b'{ "status" : "ok",\n  "version": "test" }')
        elif MODE == "health-chunked":
            self.reply(200, b'{"status":"ok"}', chunked=True)
        else:
            self.reply(503, b'{"status":"starting"}')

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if MODE != "record":
            self.reply(405, b"{}")
            return
        if "/lists/frozen/" in self.path:
            self.reply(409, b'{"title":"Conflict","status":409,"detail":"list frozen is read-only"}')
            return
        Handler.posts += 1
        Handler.version += 1
        with open(os.path.join(OUTDIR, "post-%04d.json" % Handler.posts), "wb") as out:
            out.write(body)
        with open(os.path.join(OUTDIR, "paths.txt"), "a") as out:
            out.write("%s %s %s\n" % (self.path, self.headers.get("Content-Type"), len(body)))
        # The real server's answer shape: seed reads it through RecentsClient, which decodes it whole.
        calls = json.loads(body)["calls"]
        self.reply(201, json.dumps({"version": Handler.version, "epoch": "fake", "calls": calls}).encode())


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(PORTFILE + ".tmp", "w") as out:
    out.write(str(server.server_address[1]))
os.rename(PORTFILE + ".tmp", PORTFILE)
server.serve_forever()
