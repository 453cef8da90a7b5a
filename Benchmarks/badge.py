#!/usr/bin/env python3
"""The missed-calls badge's cost (issue 41): `unseenMissed` is in every transition, GET list and
uncached rows reply (a walk over the unseen missed calls until the count was stored with each
version; the unseen / seen ratios show whether it still depends on them). One server, two
lists seeded alike (`recents seed`, the same seed and time): `unseen` keeps its mark at 0 (all its
missed calls unseen), `seen` has its mark at the seed's time. Rounds alternate the order; each
round measures, per list, (1) acknowledged POST /calls per second with wrk (post.lua on that one
list) while an event stream follows the list (each write is a transition with its count), and
(2) sequential latencies on one keep-alive connection: POST one call, then the uncached GET
rows?limit=20 it leaves, then GET transitions since the version before. Prints one JSON object.

usage: badge.py --recents BIN --dir DIR [--calls N] [--rounds R] [--seconds S] [--samples K]
"""

import argparse
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(conn, method, path, body=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    started = time.perf_counter()
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    response = conn.getresponse()
    data = response.read()
    elapsed = (time.perf_counter() - started) * 1e3
    if response.status >= 300:
        raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
    return elapsed, json.loads(data) if data else None


def wait_http(port, proc):
    for _ in range(300):
        if proc.poll() is not None:
            raise RuntimeError("the server exited")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/v1/rules")
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not answer")


def latencies(port, lst, samples, stamp):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    post, rows, trans = [], [], []
    for k in range(samples):
        call = {"id": f"{stamp}-{k}", "peer": {"id": f"p{k % 50}"}, "direction": "incoming", "timestamp": 0}
        call["timestamp"] = 1764460800 + k
        ms, reply = request(conn, "POST", f"/v1/lists/{lst}/calls", {"calls": [call]})
        post.append(ms)
        version = reply["version"]
        ms, page = request(conn, "GET", f"/v1/lists/{lst}/rows?limit=20")
        rows.append(ms)
        ms, _ = request(conn, "GET", f"/v1/lists/{lst}/transitions?since={version - 1}&epoch={page['epoch']}")
        trans.append(ms)
    conn.close()
    return {"post": statistics.median(post), "rows": statistics.median(rows), "transitions": statistics.median(trans)}


def writes(port, lst, seconds, stamp):
    follower = subprocess.Popen(
        ["curl", "-sN", "-H", "Accept: text/event-stream", f"http://127.0.0.1:{port}/v1/lists/{lst}/events"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        out = subprocess.run(
            ["wrk", "-t2", "-c16", f"-d{seconds}s", "-s", os.path.join(HERE, "wrk", "post.lua"),
             f"http://127.0.0.1:{port}/", "--", stamp, lst],
            capture_output=True, text=True, check=True).stdout
    finally:
        follower.terminate()
        follower.wait()
    found = re.search(r"created=(\d+) other=(\d+) duration_us=(\d+)", out)
    if not found or int(found.group(2)) or not int(found.group(1)):
        raise RuntimeError(f"wrk: {out[-300:]}")
    return int(found.group(1)) / (int(found.group(3)) / 1e6)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--recents", required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--calls", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--now", type=int, default=1764460800 + 86400 * 30)
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen(
        [args.recents, "serve", "--port", str(port), "--db", os.path.join(args.dir, "db.sqlite"), "--log-level", "warn"],
        stderr=open(os.path.join(args.dir, "server.log"), "w"))
    result = {"pid": server.pid, "calls": args.calls, "rounds": args.rounds}
    try:
        wait_http(port, server)
        for lst in ("unseen", "seen"):
            subprocess.run(
                [args.recents, "seed", "--port", str(port), "--list", lst, "--calls", str(args.calls),
                 "--now", str(args.now)], check=True, stdout=subprocess.DEVNULL)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        request(conn, "POST", "/v1/lists/seen/seen", {"through": args.now})
        for lst in ("unseen", "seen"):
            result[f"{lst}_badge"] = request(conn, "GET", f"/v1/lists/{lst}")[1]["unseenMissed"]
        rounds = {"unseen": [], "seen": []}
        for r in range(args.rounds):
            order = ("unseen", "seen") if r % 2 == 0 else ("seen", "unseen")
            for lst in order:
                one = latencies(port, lst, args.samples, f"l{r}")
                one["writes"] = writes(port, lst, args.seconds, f"w{r}")
                rounds[lst].append(one)
        result["rounds_detail"] = rounds
        for lst in rounds:
            for key in ("writes", "post", "rows", "transitions"):
                result[f"{lst}_{key}"] = statistics.mean(one[key] for one in rounds[lst])
        for key in ("writes", "post", "rows", "transitions"):
            result[f"ratio_{key}"] = result[f"unseen_{key}"] / result[f"seen_{key}"]
    finally:
        server.terminate()
        server.wait()
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
