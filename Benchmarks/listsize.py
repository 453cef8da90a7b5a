#!/usr/bin/env python3
"""Cost against a list's size for Benchmarks/run (issue 42, goal 6).

Against a server on 127.0.0.1:PORT whose list LIST is seeded (`recents seed`), measures one after
the other, each on its own keep-alive connection:

- rows: GET /v1/lists/LIST/rows, one at a time, for --reads requests: mean latency and req/s;
- write: POST one call to LIST, one at a time, --writes times: mean latency;
- the ACTION (`clear`: POST /v1/lists/LIST/clear; `delete`: DELETE /v1/lists/LIST), once, timed
  from the request's send to its answer's head (`action_head_ms`) and last byte (`action_ms`), while a steady writer POSTs one call at a
  time to the list OTHER, from --lead seconds before the action to --trail seconds after it:
  that writer's worst and 99th-percentile latency. With --key the action carries an
  Idempotency-Key, with --prefer a Prefer header.

Prints JSON. Standard library only; every answer must be 2xx (else exit 1).
"""

import argparse
import http.client
import json
import sys
import threading
import time


def timed_head(
    conn: http.client.HTTPConnection,
    method: str,
    path: str,
    body: str | None = None,
    key: str | None = None,
    prefer: str | None = None,
) -> tuple[float, float]:
    """Sends one request, reads the whole answer; returns the seconds to its head and to its last
    byte (raises on a non-2xx)."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if key is not None:
        headers["Idempotency-Key"] = key
    if prefer is not None:
        headers["Prefer"] = prefer
    start = time.perf_counter()
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    head = time.perf_counter() - start
    data = response.read()
    elapsed = time.perf_counter() - start
    if not 200 <= response.status < 300:
        raise RuntimeError(f"{method} {path}: {response.status} {data[:300]!r}")
    return head, elapsed


def timed(
    conn: http.client.HTTPConnection, method: str, path: str, body: str | None = None, key: str | None = None
) -> float:
    """Sends one request, reads the whole answer; returns its seconds (raises on a non-2xx)."""
    return timed_head(conn, method, path, body, key)[1]


def call_body(prefix: str, n: int) -> str:
    return json.dumps(
        {"id": f"{prefix}-{n}", "peer": {"id": "bench-peer"}, "direction": "incoming", "timestamp": 1764460800 + n}
    )


class SteadyWriter(threading.Thread):
    """POSTs one call at a time to a list, recording (sent at, seconds) for each."""

    def __init__(self, port: int, target: str):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.path = f"/v1/lists/{target}/calls"
        self.samples: list[tuple[float, float]] = []  # (sent at, seconds)
        self.stopping = threading.Event()
        self.error: Exception | None = None

    def run(self):
        n = 0
        try:
            while not self.stopping.is_set():
                sent = time.perf_counter()
                self.samples.append((sent, timed(self.conn, "POST", self.path, call_body("steady", n))))
                n += 1
        except Exception as error:  # reported by the main thread
            self.error = error


def main(argv) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--list", required=True)
    parser.add_argument("--other", required=True)
    parser.add_argument("--action", choices=["clear", "delete"], required=True)
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--writes", type=int, default=20)
    parser.add_argument("--lead", type=float, default=0.5)
    parser.add_argument("--trail", type=float, default=0.5)
    parser.add_argument("--key", help="send the action with this Idempotency-Key (its answer is recorded)")
    parser.add_argument("--prefer", help="send the action with this Prefer header (e.g. return=minimal)")
    args = parser.parse_args(argv)

    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=120)
    rows_path = f"/v1/lists/{args.list}/rows"
    timed(conn, "GET", rows_path)  # warm: the first read of a list fills the server's caches
    start = time.perf_counter()
    reads = [timed(conn, "GET", rows_path) for _ in range(args.reads)]
    reads_elapsed = time.perf_counter() - start
    writes = [
        timed(conn, "POST", f"/v1/lists/{args.list}/calls", call_body("write", n)) for n in range(args.writes)
    ]

    writer = SteadyWriter(args.port, args.other)
    writer.start()
    time.sleep(args.lead)  # the steady writer's pace before the action, part of the window
    action_sent = time.perf_counter()
    if args.action == "clear":
        head, action = timed_head(conn, "POST", f"/v1/lists/{args.list}/clear", '{"scope": "me"}', args.key, args.prefer)
    else:
        head, action = timed_head(conn, "DELETE", f"/v1/lists/{args.list}", key=args.key, prefer=args.prefer)
    time.sleep(args.trail)
    writer.stopping.set()
    writer.join()
    if writer.error is not None:
        raise writer.error
    during = sorted(seconds for _, seconds in writer.samples)
    worst = max(writer.samples, key=lambda sample: sample[1], default=None)
    ms = lambda seconds: round(seconds * 1000, 3)
    print(
        json.dumps(
            {
                "rows_ms": ms(sum(reads) / len(reads)),
                "rows_per_second": round(len(reads) / reads_elapsed, 1),
                "write_ms": ms(sum(writes) / len(writes)),
                "action": args.action,
                "action_ms": ms(action),
                "action_head_ms": ms(head),
                "other_writes": len(during),
                "other_write_max_ms": ms(during[-1]) if during else None,
                "other_write_p99_ms": ms(during[int(len(during) * 0.99)]) if during else None,
                # When the worst write was sent, from the action's send (negative: before it).
                "other_write_max_sent_ms": ms(worst[0] - action_sent) if worst else None,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
