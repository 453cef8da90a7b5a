#!/usr/bin/env python3
"""Long-poll fan-out client for Benchmarks/run (issue 7, figure 3); standard library only.

`fanout`: parks `lists × per-list` GET .../transitions?since=V&wait=S requests (one keep-alive
connection each), waits until the server's /metrics shows all of them parked, samples the
server's RSS, then writes one new call to every list (all writes sent at once) and measures per
waiter the time from the first write's send to the last byte of its answer, using the kernel's
receive timestamp of that byte (SO_TIMESTAMPNS), so the figure does not include the time this
Python client needs to get round to reading 10,000 sockets (reported apart, as client_*), and
the client reads nothing for `--hold-reads` seconds after the write (netlib.hold_reads), so that
its reading does not take CPU from the server inside the window measured. It checks that every
waiter of a list got the same bytes and that those bytes are the right diff: from V to the
write's version, exactly one insert (the new call) and no delete.
With `--also-port` half the waiters park on a second instance on the same database (PostgreSQL),
so they are woken by the cross-instance notification of the write sent to `--port`.

`burst`: the anchor. It opens N connections to any server (nginx), then sends one GET on each
as fast as it can and measures, the same way, the time from the first send to each answer's
last byte: how long a plain static server takes to answer N requests that arrive at once from
this client (the client's send loop included: it is reported as send_loop_ms).

Prints one JSON object on stdout; exits 1 when the run is broken (a wrong or missing answer).
"""

import argparse
import asyncio
import json
import sys
import time

import netlib

CALL_TIMESTAMP = 1764460800


def call_body(call_id: str, peer: str, timestamp: int) -> bytes:
    """One call as POST .../calls takes it."""
    call = {"id": call_id, "peer": {"id": peer}, "direction": "incoming", "timestamp": timestamp}
    return json.dumps(call).encode()


def base_body(prefix: str, count: int) -> bytes:
    """`count` older calls from a handful of peers, so the list has rows before the write."""
    calls = [
        {"id": f"{prefix}-base-{i}", "peer": {"id": f"peer{i % 7}"}, "direction": "outgoing",
         "timestamp": CALL_TIMESTAMP - 86400 * (1 + i % 30) - i}
        for i in range(count)
    ]
    return json.dumps({"calls": calls}).encode()


async def parked(ports: list, want: int, deadline: float) -> int:
    """Polls /metrics (of every instance in `ports`, summed) until `want` long-polls are parked; the count is what the servers say,
    not what the client hopes, so a dropped request shows up here. Its connection is opened here,
    right before its first request: one opened earlier sits silent while thousands of waiters
    connect, and the server answers a connection silent for --head-timeout with 408 and closes it."""
    controls = [await netlib.connect(port) for port in ports]
    try:
        count = -1
        while time.perf_counter() < deadline:
            count = 0
            for control in controls:
                reply = await netlib.fetch(control, "GET", "/metrics")
                for line in reply.body.decode().splitlines():
                    if line.startswith("recents_parked_long_polls "):
                        count += int(float(line.split()[1]))
            if count >= want:
                return count
            await asyncio.sleep(0.05)
        return count
    finally:
        for control in controls:
            control.transport.close()


async def prepare_lists(port: int, names: list, base_calls: int) -> dict:
    """Gives every list `base_calls` calls (64 writers at a time) and returns each list's
    version afterwards; with no base calls a never-written list is at version 0."""
    if base_calls == 0:
        return {name: 0 for name in names}
    conns = await netlib.connect_many(port, min(64, len(names)))
    versions = {}

    async def worker(conn, mine):
        for name in mine:
            reply = await netlib.fetch(conn, "POST", f"/v1/lists/{name}/calls", base_body(name, base_calls))
            if reply.status != 201:
                raise RuntimeError(f"base write to {name}: {reply.status} {reply.body[:200]!r}")
            versions[name] = reply.json()["version"]

    await asyncio.gather(*(worker(c, names[i :: len(conns)]) for i, c in enumerate(conns)))
    for conn in conns:
        conn.transport.close()
    return versions


def check_list(name: str, since: int, version: int, call_id: str, replies: list) -> list:
    """Problems with the answers one list's waiters got (an empty list when all is well)."""
    problems = []
    bodies = {r.body for r in replies}
    if any(r.status != 200 for r in replies):
        problems.append(f"{name}: statuses {sorted({r.status for r in replies})}")
    if len(bodies) != 1:
        problems.append(f"{name}: {len(bodies)} different bodies among {len(replies)} waiters")
    diff = json.loads(replies[0].body)
    if diff.get("from") != since or diff.get("to") != version:
        problems.append(f"{name}: from {diff.get('from')} to {diff.get('to')}, expected {since} to {version}")
    inserts = [i.get("id") for i in diff.get("inserts", [])]
    if inserts != [call_id] or diff.get("deletes"):
        problems.append(f"{name}: inserts {inserts} deletes {diff.get('deletes')}, expected one insert {call_id}")
    return problems


def summary(times_ms: list) -> dict:
    """p50, p99 and max of per-connection times, in milliseconds."""
    return {
        "p50_ms": round(netlib.percentile(times_ms, 0.50), 3),
        "p99_ms": round(netlib.percentile(times_ms, 0.99), 3),
        "max_ms": round(max(times_ms), 3),
    }


async def park_waiters(args, names: list, since: dict) -> dict:
    """Opens the waiters (kernel-stamped connections), sends their long-polls, round-robin over
    the lists (and over the instances, with --also-port), and returns them by list once /metrics
    says all are parked (None if not)."""
    total = len(names) * args.per_list
    also = getattr(args, "also_port", 0)  # sse.py passes its own arguments, without --also-port
    ports = [args.port] + ([also] if also else [])
    order = [names[index % len(names)] for index in range(total)]
    waiters = {}
    for shard, port in enumerate(ports):
        mine = order[shard :: len(ports)]
        requests = [
            netlib.request_bytes("GET", f"/v1/lists/{name}/transitions?since={since[name]}&wait={args.wait}")
            for name in mine
        ]
        for name, conn in zip(mine, await netlib.stamped_many(port, requests)):
            waiters.setdefault(name, []).append(conn)
    count = await parked(ports, total, time.perf_counter() + args.park_timeout)
    return waiters if count >= total else None


async def write_each(writers: list, names: list, timeout: float) -> tuple:
    """Sends one new call to every list, all at once, one keep-alive connection per list.
    Returns the send instant (perf_counter and CLOCK_REALTIME ns), the call ids and the replies."""
    call_ids = {name: f"{name}-new" for name in names}
    requests = [
        netlib.request_bytes("POST", f"/v1/lists/{n}/calls", call_body(call_ids[n], "newpeer", CALL_TIMESTAMP))
        for n in names
    ]
    t0, t0_ns = time.perf_counter(), time.time_ns()
    pending = [w.send(r) for w, r in zip(writers, requests)]
    replies = await asyncio.wait_for(asyncio.gather(*pending), timeout)
    return t0, t0_ns, call_ids, replies


def verify(names: list, since: dict, call_ids: dict, write_replies: list, answers: dict) -> list:
    """Every write acknowledged and every list's waiters given the one right diff."""
    problems = []
    for name, reply in zip(names, write_replies):
        if reply.status != 201:
            problems.append(f"{name}: write answered {reply.status}")
            continue
        problems += check_list(name, since[name], reply.json()["version"], call_ids[name], answers[name])
    return problems


async def fanout(args) -> dict:
    """The fan-out scenario; see the module docstring."""
    names = [args.prefix] if args.lists == 1 else [f"{args.prefix}-{i}" for i in range(args.lists)]
    since = await prepare_lists(args.port, names, args.base_calls)
    rss_before = netlib.rss_kb(args.pid)
    started = time.perf_counter()
    waiters = await park_waiters(args, names, since)
    park_s = time.perf_counter() - started
    total = len(names) * args.per_list
    if waiters is None:
        return {"error": f"not all {total} long-polls parked within {args.park_timeout} s"}
    await asyncio.sleep(args.settle)  # let allocations settle before sampling memory
    rss_waiting = netlib.rss_kb(args.pid)
    # Writers connect now and serve one request first, so that no server head timeout can
    # close them while the waiters park, and the write does not pay for a handshake.
    writers = [conn for conn, _ in await netlib.fetch_many(args.port, len(names), "/healthz")]
    held = netlib.hold_reads([c for cs in waiters.values() for c in cs], args.hold_reads)
    t0, t0_ns, call_ids, write_replies = await write_each(writers, names, args.answer_timeout)
    await netlib.resume_reads(held, t0, args.hold_reads)
    answers = {}
    try:
        for name, conns in waiters.items():
            answers[name] = await asyncio.wait_for(asyncio.gather(*(c.future for c in conns)), args.answer_timeout)
    except asyncio.TimeoutError:
        got = sum(c.future.done() for cs in waiters.values() for c in cs)
        return {"error": f"{got} of {total} waiters answered within {args.answer_timeout} s"}
    problems = verify(names, since, call_ids, write_replies, answers)
    done_ms = [(r.done - t0_ns) / 1e6 for rs in answers.values() for r in rs]
    client_ms = [(c.user_done_ns - t0_ns) / 1e6 for cs in waiters.values() for c in cs]
    for conn in (c for cs in waiters.values() for c in cs):
        conn.close()
    result = {
        "scenario": "fanout", "lists": len(names), "waiters": total, "park_s": round(park_s, 2),
        "rss_before_kb": rss_before, "rss_waiting_kb": rss_waiting,
        "write_ack_max_ms": round(max((r.done - t0) * 1000 for r in write_replies), 3),
        "client_p50_ms": round(netlib.percentile(client_ms, 0.5), 3),
        "client_max_ms": round(max(client_ms), 3),
        "all_within_1s": max(done_ms) <= 1000, "answered": len(done_ms),
        "body_bytes": len(next(iter(answers.values()))[0].body),
        "problems": problems[:10], "problem_count": len(problems),
    }
    result.update(summary(done_ms))
    return result


async def burst(args) -> dict:
    """The client-capacity anchor; see the module docstring."""
    conns = await netlib.stamped_many(args.port, [None] * args.conns)
    request = netlib.request_bytes("GET", args.path)
    t0, t0_ns = time.perf_counter(), time.time_ns()
    for conn in conns:
        conn.send(request)
    sent_ms = (time.time_ns() - t0_ns) / 1e6
    # The same hold as the fan-out's, from the first send: reading starts `--hold-reads` later.
    await netlib.resume_reads(netlib.hold_reads(conns, args.hold_reads), t0, args.hold_reads)
    replies = await asyncio.wait_for(asyncio.gather(*(c.future for c in conns)), args.answer_timeout)
    done_ms = [(r.done - t0_ns) / 1e6 for r in replies]
    own_ms = [(r.done - c.sent_ns) / 1e6 for r, c in zip(replies, conns)]
    client_ms = [(c.user_done_ns - t0_ns) / 1e6 for c in conns]
    bad = sum(r.status != 200 for r in replies)
    for conn in conns:
        conn.close()
    result = {"scenario": "burst", "conns": len(conns), "send_loop_ms": round(sent_ms, 3), "non_200": bad,
              "own_send_p50_ms": round(netlib.percentile(own_ms, 0.5), 3),
              "client_max_ms": round(max(client_ms), 3), "problem_count": bad}
    result.update(summary(done_ms))
    return result


def parse_args(argv):
    """Command line; see --help."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    fan = sub.add_parser("fanout", help="park waiters, write once per list, time the answers")
    fan.add_argument("--port", type=int, required=True)
    fan.add_argument("--pid", type=int, required=True, help="server PID, for VmRSS")
    fan.add_argument("--prefix", default="fan", help="list name (or name prefix with --lists > 1)")
    fan.add_argument("--also-port", type=int, default=0,
                     help="a second instance on the same database: half the waiters park there (writes go to --port)")
    fan.add_argument("--lists", type=int, default=1)
    fan.add_argument("--per-list", type=int, default=10000, help="waiters per list")
    fan.add_argument("--base-calls", type=int, default=20, help="calls written to each list first (fewer than the view limit of 50 rows)")
    fan.add_argument("--wait", type=int, default=30, help="the long-poll's wait= seconds")
    fan.add_argument("--park-timeout", type=float, default=20.0)
    fan.add_argument("--answer-timeout", type=float, default=10.0)
    fan.add_argument("--settle", type=float, default=0.5, help="seconds to wait before sampling RSS")
    netlib.add_hold_reads_argument(fan)
    bur = sub.add_parser("burst", help="anchor: one GET on each of N open connections at once")
    bur.add_argument("--port", type=int, required=True)
    bur.add_argument("--path", required=True)
    bur.add_argument("--conns", type=int, default=10000)
    bur.add_argument("--answer-timeout", type=float, default=10.0)
    netlib.add_hold_reads_argument(bur)
    return parser.parse_args(argv)


def main(argv) -> int:
    """Runs one scenario and prints its JSON result."""
    args = parse_args(argv)
    netlib.raise_nofile(20000)
    runner = fanout if args.mode == "fanout" else burst
    result = asyncio.run(asyncio.wait_for(runner(args), 300))
    print(json.dumps(result), flush=True)
    return 1 if "error" in result or result.get("problem_count") else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
