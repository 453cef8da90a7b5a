#!/usr/bin/env python3
"""Idle keep-alive connection footprint for Benchmarks/run (issue 7, figure 6; issue 4).

Opens N connections to a server, sends one GET (default /healthz) on each and reads the answer,
then keeps them all open and idle. The server's resident memory (VmRSS of --pid, plus its
children with --children, for nginx's workers) is sampled before the first connection and once
all N are idle; the growth divided by N is the cost of one idle connection. Standard library only.

Prints one JSON object; exits 1 when a connection failed or an answer was not 200.
"""

import argparse
import asyncio
import json
import sys

import netlib


async def hold(args) -> dict:
    """Opens, uses once and holds the connections; samples memory around it."""
    await asyncio.sleep(args.settle)
    before = netlib.rss_kb(args.pid, args.children)
    pairs = await netlib.fetch_many(args.port, args.n, args.path)
    conns = [conn for conn, _ in pairs]
    replies = [reply for _, reply in pairs]
    await asyncio.sleep(args.settle)  # let the server finish its bookkeeping before sampling
    after = netlib.rss_kb(args.pid, args.children)
    open_now = sum(not c.closed.done() for c in conns)
    for conn in conns:
        conn.transport.close()
    bad = sum(r.status != 200 for r in replies) + (args.n - open_now)
    return {
        "conns": args.n, "rss_before_kb": before, "rss_after_kb": after,
        "bytes_per_conn": round((after - before) * 1024 / args.n, 1),
        "growth_mb": round((after - before) / 1024, 2), "problem_count": bad,
    }


def main(argv) -> int:
    """Parses flags, runs, prints JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--children", action="store_true", help="add the RSS of the PID's children")
    parser.add_argument("--n", type=int, default=10000)
    parser.add_argument("--path", default="/healthz")
    parser.add_argument("--settle", type=float, default=1.0, help="seconds to wait before each sample")
    parser.add_argument("--timeout", type=float, default=180.0, help="give up after this many seconds")
    args = parser.parse_args(argv)
    netlib.raise_nofile(args.n + 100)
    result = asyncio.run(asyncio.wait_for(hold(args), args.timeout))
    print(json.dumps(result), flush=True)
    return 1 if result["problem_count"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
