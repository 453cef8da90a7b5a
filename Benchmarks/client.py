#!/usr/bin/env python3
"""Small sequential HTTP chores for Benchmarks/run, on one keep-alive connection (stdlib only).

  posts   --list L --n N    N single-call POSTs (new ids, one version each), e.g. to give a
                            list 500+ retained versions for the transitions figure
  repeat  --path P --n N    N GETs of P, each checked for 200 (the access log times them)
  version --list L          prints the list's current version
  get     --path P          prints the body of one GET (exit 1 unless 200)
  save    --root DIR PATH...  saves each GET PATH body to DIR/PATH-without-query, for nginx
  fit     --list L --bytes B  prints "N SIZE": the largest rows?limit=N body of at most B bytes
  views   --list L --rows R --views V  posts R calls (one row each) in batches, then GETs
                            rows?limit=1000 for V distinct (tz, filter) views; prints the mean body size

Doing these with curl would cost a process per request; here 600 posts take a second or so.
"""

import argparse
import http.client
import json
import os
import sys


def request(conn, method: str, path: str, body: bytes = b"") -> tuple:
    """One request; returns (status, body)."""
    headers = {"Content-Type": "application/json"} if method == "POST" else {}
    conn.request(method, path, body=body or None, headers=headers)
    reply = conn.getresponse()
    return reply.status, reply.read()


def posts(conn, args) -> int:
    """Single-call POSTs with unique ids and growing timestamps (new rows at the top)."""
    for i in range(args.n):
        call = {"id": f"{args.prefix}-{i}", "peer": {"id": f"single{i % 13}"}, "direction": "incoming",
                "timestamp": args.timestamp + i}
        status, body = request(conn, "POST", f"/v1/lists/{args.list}/calls", json.dumps(call).encode())
        if status != 201:
            print(f"post {i}: {status} {body[:200]!r}", file=sys.stderr)
            return 1
    return 0


def repeat(conn, args) -> int:
    """GETs of one path; any non-200 is a broken run."""
    for _ in range(args.n):
        status, body = request(conn, "GET", args.path)
        if status != 200:
            print(f"GET {args.path}: {status} {body[:200]!r}", file=sys.stderr)
            return 1
    return 0


def version(conn, args) -> int:
    """The list's version, from GET /v1/lists/{list}."""
    status, body = request(conn, "GET", f"/v1/lists/{args.list}")
    if status != 200:
        return 1
    print(json.loads(body)["version"])
    return 0


def get(conn, args) -> int:
    """The raw body of one GET, byte for byte, on stdout."""
    status, body = request(conn, "GET", args.path)
    sys.stdout.buffer.write(body)
    return 0 if status == 200 else 1


def save(conn, args) -> int:
    """Each body byte for byte where nginx will find it for the same URL (nginx ignores the
    query string when it maps a URL to a file)."""
    for path in args.paths:
        status, body = request(conn, "GET", path)
        if status != 200:
            print(f"GET {path}: {status}", file=sys.stderr)
            return 1
        target = os.path.join(args.root, path.split("?")[0].lstrip("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as handle:
            handle.write(body)
    return 0


def fit(conn, args) -> int:
    """The rows page closest to (not above) a size: Recents has no fixed-size route."""
    best = None
    for limit in range(1, 51):
        status, body = request(conn, "GET", f"/v1/lists/{args.list}/rows?limit={limit}")
        if status != 200:
            return 1
        if len(body) > args.bytes and best:
            break
        best = (limit, len(body))
    print(*best)
    return 0


def views(conn, args) -> int:
    """Issue 11's memory attack: many distinct, valid, large views of one list."""
    calls = [{"id": f"v-{i}", "peer": {"id": f"peer{i}", "name": f"Peer number {i}"}, "direction": "incoming",
              "endReason": "missed", "timestamp": 1764460800 + 60 * i} for i in range(args.rows)]
    for start in range(0, len(calls), 1000):
        body = json.dumps({"calls": calls[start:start + 1000]}).encode()
        status, reply = request(conn, "POST", f"/v1/lists/{args.list}/calls", body)
        if status != 201:
            print(f"post: {status} {reply[:200]!r}", file=sys.stderr)
            return 1
    # tz spans -840..840 minutes; with two filters that is 3,362 distinct views.
    combos = [(tz, flt) for tz in range(-840, 841) for flt in ("all", "missed")][:args.views]
    total = 0
    for tz, flt in combos:
        status, body = request(conn, "GET", f"/v1/lists/{args.list}/rows?limit=1000&tz={tz}&filter={flt}")
        if status != 200:
            print(f"GET view tz={tz} filter={flt}: {status}", file=sys.stderr)
            return 1
        total += len(body)
    print(total // max(1, len(combos)))
    return 0


def main(argv) -> int:
    """Parses flags and runs one chore."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    sub = parser.add_subparsers(dest="chore", required=True)
    p = sub.add_parser("posts")
    p.add_argument("--list", required=True)
    p.add_argument("--n", type=int, required=True)
    p.add_argument("--prefix", default="single")
    p.add_argument("--timestamp", type=int, default=1764460800)
    r = sub.add_parser("repeat")
    r.add_argument("--path", required=True)
    r.add_argument("--n", type=int, required=True)
    v = sub.add_parser("version")
    v.add_argument("--list", required=True)
    g = sub.add_parser("get")
    g.add_argument("--path", required=True)
    s = sub.add_parser("save")
    s.add_argument("--root", required=True)
    s.add_argument("paths", nargs="+")
    f = sub.add_parser("fit")
    f.add_argument("--list", required=True)
    f.add_argument("--bytes", type=int, required=True)
    w = sub.add_parser("views")
    w.add_argument("--list", required=True)
    w.add_argument("--rows", type=int, required=True)
    w.add_argument("--views", type=int, required=True)
    args = parser.parse_args(argv)
    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)
    chores = {"posts": posts, "repeat": repeat, "version": version, "get": get, "save": save, "fit": fit,
              "views": views}
    try:
        return chores[args.chore](conn, args)
    finally:
        conn.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
