#!/usr/bin/env python3
"""Issue 38 end to end against a release binary: what a client without a token, or with one
list's token, can make the server hold. Each check starts its own server, measures what only a
live process shows (RSS, /metrics, the database file) and asserts the documented bound:

  metrics    50,000 pipelined requests with invented methods (and 429s): bounded series, RSS, /metrics size
  head       401/403/429 before any body byte, also for Expect: 100-continue; /healthz and a reader
             answered after 200 tokenless bodies are announced at --max-connections 200
  deadline   a body dripping within the idle timeout ends with 408 at --body-timeout
  bodies     400 connections announcing 1 MiB bodies and sending half: RSS within --max-body-memory
  replays    500 keyed POSTs of one 1,000-call gzip batch grow the database by at most 10 MB
  caps       429 at the per-list stream and long-poll caps while another list gets 200
  expiry     a stream and a parked long-poll end at the token's exp, not 60 s later

usage: scripts/check-hardening.py path/to/recents [--only NAME,NAME]
Every server it starts is stopped by its PID; its files live in one temporary directory.
"""
import gzip
import hashlib
import hmac
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checklib import FAILURES, b64url, check  # noqa: E402  (the sibling module, found through the line above)
import checklib  # noqa: E402

SECRET = "check-hardening-secret-0123456789abcdef"
def token(sub, ttl=600, exp=None, scope=None):
    """An HS256 token of SECRET (the test's own minting, as the app's backend would)."""
    claims = {"sub": sub, "exp": exp if exp is not None else int(time.time()) + ttl}
    if scope is not None:
        claims["scope"] = scope
    signing_input = b64url(b'{"alg":"HS256","typ":"JWT"}') + "." + b64url(json.dumps(claims).encode())
    signature = hmac.new(SECRET.encode(), signing_input.encode(), hashlib.sha256).digest()
    return signing_input + "." + b64url(signature)


def known_flags(binary, flags):
    """`flags` without those `binary` does not know (an older build, measured for comparison)."""
    usage = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True).stdout
    kept, skip = [], False
    for flag in flags:
        if skip:
            skip = False
        elif flag.startswith("--") and f"{flag} " not in usage:
            print(f"note {flag} is unknown to this binary: left out", flush=True)
            skip = True
        else:
            kept.append(flag)
    return kept


class Server:
    """`recents serve` on a free port and a new database, HS256 auth on unless --auth none."""

    def __init__(self, binary, workdir, name, *flags):
        self.port = checklib.free_port()
        self.db = os.path.join(workdir, f"{name}.sqlite")
        self.log = open(os.path.join(workdir, f"{name}.log"), "w")
        env = dict(os.environ, RECENTS_AUTH_SECRET=SECRET)
        command = [binary, "serve", "--port", str(self.port), "--db", self.db, "--log-level", "warn",
                   *known_flags(binary, flags)]
        self.process = checklib.start(command, self.port, self.log, env, workdir, f"check-hardening: {name}")

    def connect(self, timeout=10):
        return socket.create_connection(("127.0.0.1", self.port), timeout=timeout)

    def exchange(self, raw, timeout=10):
        """Sends `raw` on a new connection, returns (status, head text, body bytes)."""
        with self.connect(timeout) as s:
            s.sendall(raw)
            return read_response(s)

    def get(self, path, tok=None, extra=""):
        auth = f"Authorization: Bearer {tok}\r\n" if tok else ""
        return self.exchange(f"GET {path} HTTP/1.1\r\nHost: x\r\n{auth}{extra}Connection: close\r\n\r\n".encode())

    def rss(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        return 0

    def stop(self):
        checklib.stop(self.process)
        self.log.close()


def receive(s):
    """The next bytes of `s`; b"" at its end, on a reset or on a timeout (no answer: the caller's check says so)."""
    try:
        return s.recv(65536)
    except OSError:
        return b""


def read_response(s, head_only=False):
    """(status, head, body) of one answer (0 for none); the body by Content-Length, or to the close."""
    data = b""
    while b"\r\n\r\n" not in data:
        if not (chunk := receive(s)):
            return 0, data.decode("latin-1"), b""
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    head = head.decode("latin-1")
    fields = [line.split(":", 1) for line in head.split("\r\n")[1:]]
    length = next((int(value) for name, value in fields if name.lower() == "content-length"), None)
    while not head_only and (length is None or len(body) < length) and (chunk := receive(s)):
        body += chunk
    return int(head.split(" ", 2)[1]), head, body


def closed_after(s, seconds=5):
    """Whether the server closes `s` (EOF or reset) within `seconds`, whatever else it sends."""
    s.settimeout(seconds)
    try:
        while s.recv(65536):
            pass
        return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def head(path, tok=None, length=100_000, extra=""):
    auth = f"Authorization: Bearer {tok}\r\n" if tok else ""
    return (f"POST {path} HTTP/1.1\r\nHost: x\r\n{auth}Content-Type: application/json\r\n"
            f"Content-Length: {length}\r\n{extra}\r\n").encode()


def metrics(binary, workdir):
    server = Server(binary, workdir, "metrics", "--rate-limit", "1000")
    try:
        before = server.rss()
        def flood(offset, count, path):
            with server.connect(60) as s:
                def drain():
                    seen = 0
                    while seen < count and (chunk := s.recv(1 << 20)):
                        seen += chunk.count(b"HTTP/1.1 ")
                reader = threading.Thread(target=drain)
                reader.start()
                for start in range(0, count, 500):
                    s.sendall(b"".join(f"M{offset + i:0>1000} {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
                                       for i in range(start, min(count, start + 500))))
                reader.join(120)
        threads = [threading.Thread(target=flood, args=(n * 10_000, 10_000, "/healthz")) for n in range(5)]
        threads.append(threading.Thread(target=flood, args=(10**6, 5_000, "/v1/lists/alice")))
        [thread.start() for thread in threads]
        [thread.join() for thread in threads]
        status, _, body = server.get("/metrics", token("ops", scope="admin"))
        series = [line for line in body.decode().splitlines() if line.startswith("recents_http_requests_total{")]
        grown = server.rss() - before
        check(status == 200 and len(series) <= 16, f"50,000 invented methods: {len(series)} request series (<= 16)")
        check(len(body) < 16_384, f"/metrics is {len(body):,} bytes (< 16 KiB)")
        check(grown < 16 << 20, f"RSS grew {grown / 1e6:.1f} MB (< 16 MiB)")
        check(any('method="other"' in line for line in series), "they count under method=\"other\"")
    finally:
        server.stop()


def head_refusals(binary, workdir):
    server = Server(binary, workdir, "head", "--rate-limit", "1", "--max-connections", "200")
    try:
        alice = token("alice")
        cases = [("no token", None, 401), ("bob's token", token("bob"), 403)]
        for name, tok, expected in cases:
            for expect in ("", "Expect: 100-continue\r\n"):
                with server.connect(5) as s:
                    s.sendall(head("/v1/lists/alice/calls", tok, extra=expect))
                    status, text, _ = read_response(s)
                    what = f"{name}{' with Expect: 100-continue' if expect else ''}"
                    check(status == expected, f"{what}: {expected} before any body byte (got {status})")
                    check("connection: close" in text.lower() and closed_after(s), f"{what}: then the connection closes")
        [server.get("/v1/lists/alice", alice) for _ in range(2)]
        status, text, _ = server.exchange(head("/v1/lists/alice/calls", alice), timeout=5)
        check(status == 429 and "retry-after" in text.lower(), f"over the rate: 429 before any body byte (got {status})")
        held = [server.connect(5) for _ in range(200)]
        [s.sendall(head("/v1/lists/alice/calls")) for s in held]
        # Over the rate (from one address) or not, each is refused at its head and closed.
        refused = sum(1 for s in held if read_response(s)[0] in (401, 429) and closed_after(s, 3))
        check(refused == 200, f"200 tokenless bodies at --max-connections 200: {refused} refused at their head and closed")
        # Each is let go within the server's linger (1 s), though its client keeps its socket open.
        started, status = time.monotonic(), 0
        while status != 200 and time.monotonic() - started < 3:
            status = server.get("/healthz")[0]
        check(status == 200, f"/healthz answers {time.monotonic() - started:.1f} s later, their sockets still open")
        check(server.get("/v1/lists/carol", token("carol"))[0] == 200, "and a reader with a token gets 200")
        [s.close() for s in held]
    finally:
        server.stop()


def deadline(binary, workdir):
    server = Server(binary, workdir, "deadline", "--body-timeout", "2", "--idle-timeout", "60")
    try:
        with server.connect(10) as s:
            s.sendall(head("/v1/lists/alice/calls", token("alice"), length=1000))
            started = time.monotonic()
            s.settimeout(0.25)  # each read waits 0.25 s: a byte every 0.25 s, well inside --idle-timeout
            answer = b""
            while time.monotonic() - started < 8 and not answer and s.sendall(b" ") is None:
                answer = receive(s)
            elapsed = time.monotonic() - started
            status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0
            check(status == 408 and 1.9 <= elapsed < 3.5,
                  f"a body dripping a byte every 0.25 s: 408 after {elapsed:.1f} s (--body-timeout 2)")
            check(closed_after(s), "and the connection closes")
    finally:
        server.stop()


def bodies(binary, workdir):
    budget = 64 << 20  # --max-body-memory's default
    server = Server(binary, workdir, "bodies")
    try:
        before = server.rss()
        alice, half = token("alice"), b" " * (512 << 10)
        held, statuses = [], {}
        for _ in range(400):
            held.append(s := server.connect(10))
            s.sendall(head("/v1/lists/alice/calls", alice, length=1 << 20))
            s.settimeout(0.001)
            try:
                s.sendall(half)
            except OSError:
                pass
        # The peak over two seconds while the server reads what it will of ~200 MB.
        peak = max(server.rss() for _ in range(40) if time.sleep(0.05) is None)
        grown = peak - before
        for s in held:
            s.settimeout(5)
            status = read_response(s, head_only=True)[0]
            statuses[status] = statuses.get(status, 0) + 1
            s.close()
        check(grown < budget + (32 << 20), f"400 x 1 MiB bodies, half sent: RSS grew {grown / 1e6:.0f} MB at most "
              f"(< the {budget >> 20} MiB budget + 32 MiB)")
        check(statuses.get(503, 0) >= 300, f"those past the budget got 503: {statuses}")
        check(server.get("/healthz")[0] == 200, "/healthz still answers")
    finally:
        server.stop()


def replays(binary, workdir):
    server = Server(binary, workdir, "replays", "--auth", "none")
    try:
        calls = [{"id": f"c-{n}", "peer": {"id": f"peer-{n % 40}", "name": f"Peer number {n % 40}"},
                  "direction": "incoming" if n % 3 else "outgoing", "endReason": "missed" if n % 5 == 0 else "hangup",
                  "duration": n % 900, "timestamp": 1_764_460_800 + 60 * n} for n in range(1000)]
        batch = gzip.compress(json.dumps({"calls": calls}).encode())
        def post(key):
            extra = f"Content-Encoding: gzip\r\n" + (f"Idempotency-Key: {key}\r\n" if key else "")
            return server.exchange(head("/v1/lists/alice/calls", None, len(batch), extra) + batch)
        check(post(None)[0] == 201, "a 1,000-call batch is stored")
        server.stop()
        before = os.path.getsize(server.db)
        server = Server(binary, workdir, "replays", "--auth", "none")
        statuses = {post(f"key-{n}")[0] for n in range(500)}
        _, _, body = server.get("/v1/lists/alice")
        server.stop()
        grown = os.path.getsize(server.db) - before
        check(statuses == {200} and json.loads(body)["version"] == 1, f"500 keyed replays change nothing: {statuses}")
        check(grown <= 10_000_000, f"the database grew {grown / 1e6:.2f} MB over them (<= 10 MB; {len(batch):,} bytes sent each)")
    finally:
        server.stop()


def caps(binary, workdir):
    server = Server(binary, workdir, "caps", "--max-streams-per-list", "4", "--max-long-polls-per-list", "4")
    held = []
    try:
        alice, bob, admin = token("alice"), token("bob"), token("ops", scope="admin")

        def send(path, tok):
            s = server.connect(10)
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {tok}\r\n\r\n".encode())
            held.append(s)
            return s

        def parked(count):
            return f"recents_parked_long_polls {count}\n".encode() in server.get("/metrics", admin)[2]

        for kind, path in (("stream", "/v1/lists/{}/events"), ("long-poll", "/v1/lists/{}/transitions?since=0&wait=30")):
            first = [send(path.format("alice"), alice) for _ in range(4)]
            if kind == "stream":
                opened = all(read_response(s, head_only=True)[0] == 200 for s in first)
            else:
                deadline = time.time() + 10
                while time.time() < deadline and not parked(4):
                    time.sleep(0.05)
                opened = parked(4)
            status, text, body = read_response(send(path.format("alice"), alice))
            check(opened and status == 429 and "retry-after" in text.lower(),
                  f"alice's 5th {kind}: 429 with Retry-After (got {status})")
            problem = json.loads(body) if status == 429 else {}
            check(problem.get("type") == "too-many-live-requests", f"with its own problem type ({problem.get('type')})")
            other = read_response(send(path.format("bob").replace("wait=30", "wait=0"), bob), head_only=True)[0]
            check(other == 200, f"bob's {kind} meanwhile: {other}")
        check(server.get("/healthz")[0] == 200, "/healthz answers")
    finally:
        for s in held:
            s.close()
        server.stop()


def expiry(binary, workdir):
    server = Server(binary, workdir, "expiry")
    try:
        exp = int(time.time()) + 3
        short = token("alice", exp=exp)
        with server.connect(90) as stream, server.connect(90) as poll:
            stream.sendall(f"GET /v1/lists/alice/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {short}\r\n\r\n".encode())
            poll.sendall(f"GET /v1/lists/alice/transitions?since=0&wait=30 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {short}\r\n\r\n".encode())
            read_response(stream, head_only=True)
            status, _, _ = read_response(poll)
            ended = time.time()
            check(status == 401 and exp <= ended < exp + 2, f"a parked long-poll ends with 401 at exp (+{ended - exp:.1f} s)")
            data = b""
            while b"event: unauthorized" not in data and (chunk := stream.recv(65536)):
                data += chunk
            ended = time.time()
            check(b"event: unauthorized" in data and exp <= ended < exp + 2, f"a stream ends at exp (+{ended - exp:.1f} s)")
        tok = token("alice")
        status = server.get(f"/v1/lists/alice/events?access_token={tok}&access_token={tok}")[0]
        check(status == 401, f"access_token given twice: 401 (got {status})")
        status = server.get("/v1/lists/alice", token("alice", scope="openid profile"))[0]
        check(status == 200, f"an HS256 token naming none of read/write/admin reads its list (got {status})")
    finally:
        server.stop()


CHECKS = {"metrics": metrics, "head": head_refusals, "deadline": deadline, "bodies": bodies,
          "replays": replays, "caps": caps, "expiry": expiry}


def main():
    args = sys.argv[1:]
    if not args or not os.access(args[0], os.X_OK):
        sys.exit(__doc__)
    binary = os.path.abspath(args[0])
    only = args[args.index("--only") + 1].split(",") if "--only" in args else list(CHECKS)
    workdir = tempfile.mkdtemp(prefix="check-hardening-")
    try:
        for name in only:
            print(f"== {name}", flush=True)
            CHECKS[name](binary, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if FAILURES:
        sys.exit(f"check-hardening: {len(FAILURES)} failed")
    print("check-hardening: all passed")


if __name__ == "__main__":
    main()
