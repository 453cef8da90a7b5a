#!/usr/bin/env python3
"""Event-stream (SSE) clients for Benchmarks/run (issue 12); standard library only.

`fanout`: opens `lists × per-list` GET .../events streams (one connection each), waits until
every one got its first event and /metrics counts them all, samples the server's RSS, then writes
one new call to every list (all writes sent at once) and measures per stream the time from the
first write's send to the kernel receive timestamp (SO_TIMESTAMPNS) of the packet that completed
the event for that write. Reads stop at chunk ends, so a later chunk's packet does not date it;
run the server without heartbeats, though: TCP merges a segment into an unread one before it and
keeps the later timestamp, and nothing the client does separates them then. It checks that every
stream got exactly that write's diff (from the first event's version to the write's, one insert,
no delete) and reports the server's CPU (user+system ticks of /proc/PID/stat) from the write to
the last event, per delivered event. For `--hold-reads` seconds after the write the client reads
nothing (netlib.hold_reads: its reading would take CPU from the server on a small host); each
stream then holds one event, one segment, so its stamp is still the packet's arrival.

`longpoll`: the same fan-out with parked long-polls instead of streams (same counts, same
write, same CPU count), so `Benchmarks/run` can set the two side by side as ratios.

`paused`: one stream with a fixed 128 KiB receive buffer (smaller ones, below two of loopback's
64 KiB segments, stall TCP on zero-window probes) that stops reading while `writes` writes land
(16 writers at once) for at least `pause` seconds (longer when the writes take longer; a pause
past the server's `--idle-timeout` makes it close the stream, since a chunk is still pending); the server's RSS is sampled before and after
(after a warm-up round of as many writes with the stream reading, so caches have grown already).
Then it reads again and must get events that chain (each one's `from` is the previous one's
`to`) and turn its view into the current one: the view it builds by applying them must equal GET
rows. It reports how many events arrived after it read again, split by where they were when it
did: whole in the kernel's socket buffers (the server's send queue and the client's receive
queue, read from /proc/net/tcp just before it reads again, matched to the byte offsets at which
each event arrived), the one the server held beyond them (partly sent or not at all; computed
while the writes went on, so it stops short of the last version), and those the server computed
after the socket drained (the coalesced one, `after_drain_span` versions wide).

Prints one JSON object on stdout; exits 1 when the run is broken (a wrong or missing answer).
"""

import argparse
import asyncio
import json
import sys
import time

import longpoll
import netlib

from ssestream import CALL_TIMESTAMP, TICK_US, cpu_ticks, gauge, kernel_queues, open_streams, tcp_state


async def fanout(args) -> dict:
    """The stream fan-out; see the module docstring."""
    names = [args.prefix] if args.lists == 1 else [f"{args.prefix}-{i}" for i in range(args.lists)]
    await longpoll.prepare_lists(args.port, names, args.base_calls)
    rss_before = netlib.rss_kb(args.pid)
    order = [names[i % len(names)] for i in range(len(names) * args.per_list)]
    started = time.perf_counter()
    conns = await open_streams(args.port, [f"/v1/lists/{n}/events" for n in order])
    firsts = await asyncio.wait_for(
        asyncio.gather(*(c.wait_for(lambda e: e.get("event") == "transition") for c in conns)), args.answer_timeout)
    open_s = time.perf_counter() - started
    # Opened only now: a connection silent while thousands of streams open would get 408.
    control = await netlib.connect(args.port)
    if await gauge(control, "recents_open_event_streams") < len(conns):
        return {"error": "the server does not count every stream as open"}
    await asyncio.sleep(args.settle)
    rss_open = netlib.rss_kb(args.pid)
    writers = [conn for conn, _ in await netlib.fetch_many(args.port, len(names), "/healthz")]
    ticks = cpu_ticks(args.pid)
    held = netlib.hold_reads(conns, args.hold_reads)
    t0, t0_ns, call_ids, replies = await longpoll.write_each(writers, names, args.answer_timeout)
    await netlib.resume_reads(held, t0, args.hold_reads)
    versions = {n: r.json().get("version") for n, r in zip(names, replies)}
    try:
        got = await asyncio.wait_for(
            asyncio.gather(*(c.wait_for(lambda e, n=n: e.get("json", {}).get("to") == versions[n])
                             for c, n in zip(conns, order))), args.answer_timeout)
    except asyncio.TimeoutError:
        return {"error": f"not every stream got the write's event within {args.answer_timeout} s"}
    cpu_us = (cpu_ticks(args.pid) - ticks) * TICK_US
    problems = []
    for (stamp, event), (_, first), name in zip(got, firsts, order):
        diff = event["json"]
        inserts = [i["id"] for i in diff["inserts"]]
        if diff["from"] != first["json"]["to"] or inserts != [call_ids[name]] or diff["deletes"]:
            problems.append(f"{name}: from {diff['from']} inserts {inserts} deletes {diff['deletes']}")
    done_ms = [(stamp - t0_ns) / 1e6 for stamp, _ in got]
    for conn in conns:
        conn.close()
    result = {"scenario": "sse-fanout", "lists": len(names), "streams": len(conns), "open_s": round(open_s, 2),
              "rss_before_kb": rss_before, "rss_open_kb": rss_open, "events": len(got),
              "cpu_us_per_event": round(cpu_us / len(got), 3),
              # On the wire, chunk framing included: what Benchmarks/floor/sendfloor.c sends per stream.
              "event_bytes": round(sum(e["_end"] - e["_start"] for _, e in got) / len(got)),
              "write_ack_max_ms": round(max((r.done - t0) * 1000 for r in replies), 3),
              "all_within_1s": max(done_ms) <= 1000,
              "problems": problems[:10], "problem_count": len(problems)}
    result.update(longpoll.summary(done_ms))
    return result


async def longpoll_fanout(args) -> dict:
    """The long-poll fan-out with the server CPU count, for the side-by-side rows."""
    names = [args.prefix] if args.lists == 1 else [f"{args.prefix}-{i}" for i in range(args.lists)]
    since = await longpoll.prepare_lists(args.port, names, args.base_calls)
    args.wait, args.park_timeout = 30, args.answer_timeout * 2
    waiters = await longpoll.park_waiters(args, names, since)
    if waiters is None:
        return {"error": "not every long-poll parked"}
    await asyncio.sleep(args.settle)
    writers = [conn for conn, _ in await netlib.fetch_many(args.port, len(names), "/healthz")]
    ticks = cpu_ticks(args.pid)
    held = netlib.hold_reads([c for cs in waiters.values() for c in cs], args.hold_reads)
    t0, t0_ns, call_ids, replies = await longpoll.write_each(writers, names, args.answer_timeout)
    await netlib.resume_reads(held, t0, args.hold_reads)
    answers = {}
    for name, conns in waiters.items():
        answers[name] = await asyncio.wait_for(asyncio.gather(*(c.future for c in conns)), args.answer_timeout)
    cpu_us = (cpu_ticks(args.pid) - ticks) * TICK_US
    problems = longpoll.verify(names, since, call_ids, replies, answers)
    done_ms = [(r.done - t0_ns) / 1e6 for rs in answers.values() for r in rs]
    for conn in (c for cs in waiters.values() for c in cs):
        conn.close()
    result = {"scenario": "longpoll-fanout", "lists": len(names), "waiters": len(done_ms),
              "cpu_us_per_event": round(cpu_us / len(done_ms), 3),
              "problems": problems[:10], "problem_count": len(problems)}
    result.update(longpoll.summary(done_ms))
    return result


def apply(rows: list, diff: dict) -> list:
    """What a client does with a transition: deletes descending, inserts ascending, updates."""
    rows = list(rows)
    for delete in sorted(diff["deletes"], key=lambda d: -d["index"]):
        del rows[delete["index"]]
    for insert in sorted(diff["inserts"], key=lambda i: i["index"]):
        rows.insert(insert["index"], insert["row"])
    for update in diff["updates"]:
        rows[update["index"]] = update["row"]
    return rows


async def write_many(port: int, name: str, count: int, offset: int) -> int:
    """`count` one-call writes to `name` from 16 connections; returns the last version."""
    conns = await netlib.connect_many(port, 16)
    last = 0

    async def worker(conn, ids):
        nonlocal last
        for i in ids:
            body = longpoll.call_body(f"w-{i}", f"peer{i % 97}", CALL_TIMESTAMP + i)
            reply = await netlib.fetch(conn, "POST", f"/v1/lists/{name}/calls", body)
            if reply.status != 201:
                raise RuntimeError(f"write {i}: {reply.status}")
            last = max(last, reply.json()["version"])

    ids = list(range(offset, offset + count))
    await asyncio.gather(*(worker(c, ids[k::16]) for k, c in enumerate(conns)))
    for conn in conns:
        conn.transport.close()
    return last


async def paused(args) -> dict:
    """The paused reader; see the module docstring."""
    name = args.prefix
    (conn,) = await open_streams(args.port, [f"/v1/lists/{name}/events"], receive_buffer=args.receive_buffer)
    _, first = await asyncio.wait_for(conn.wait_for(lambda e: e.get("event") == "transition"), args.answer_timeout)
    view = apply([], first["json"])
    warm = await write_many(args.port, name, args.writes, 0)  # the stream reads meanwhile
    await asyncio.wait_for(conn.wait_for(lambda e: e.get("json", {}).get("to") == warm), args.answer_timeout * 3)
    for _, event in conn.events[1:]:
        view = apply(view, event["json"])
    seen = len(conn.events)
    conn.pause()
    read_at_pause = conn.received
    rss_before = netlib.rss_kb(args.pid)
    paused_at = time.perf_counter()
    last = await write_many(args.port, name, args.writes, args.writes)
    await asyncio.sleep(max(0.0, args.pause - (time.perf_counter() - paused_at)))
    rss_after = netlib.rss_kb(args.pid)
    server_queue, client_queue = kernel_queues(args.port, conn.sock.getsockname()[1])
    boundary = read_at_pause + server_queue + client_queue  # stream offset of the server's first unsent byte
    conn.resume()
    try:
        await asyncio.wait_for(conn.wait_for(lambda e: e.get("json", {}).get("to") == last), args.answer_timeout)
    except asyncio.TimeoutError:
        # What a stall looks like, for whoever has to find it: what arrived, and where bytes sit.
        tail = [(e.get("event"), e.get("id")) for _, e in conn.events[-3:]]
        try:
            queues = kernel_queues(args.port, conn.sock.getsockname()[1])
        except (RuntimeError, OSError):
            queues = None  # the server closed its side
        paused_for = time.perf_counter() - paused_at - args.answer_timeout
        error = f"no event reached version {last} within {args.answer_timeout} s of reading again"
        if conn.closed and paused_for >= args.idle_timeout:
            # Not a lost wake-up: with a chunk still held the server closes a connection whose
            # client read nothing for its idle timeout, and the writes made the pause that long.
            error += (f": the server closed the stream after the reader read nothing for {paused_for:.0f} s"
                      f" (its --idle-timeout is {args.idle_timeout:g} s)")
        return {"error": error,
                "events_after_resume": len(conn.events) - seen, "last_events": tail, "closed": conn.closed,
                "kernel_queues_now": queues, "kernel_queues_at_resume": [server_queue, client_queue],
                "unparsed_bytes": len(conn.raw), "paused_s": round(time.perf_counter() - paused_at, 2),
                "tcp": tcp_state(conn.sock.getsockname()[1])}
    await asyncio.sleep(args.settle)  # an event after the one reaching `last` would be a bug; give it time to show
    after = [event for _, event in conn.events[seen:]]
    problems = []
    at = conn.events[seen - 1][1]["json"]["to"]
    for event in after:
        if event.get("event") != "transition" or event["json"]["from"] != at:
            problems.append(f"event {event.get('id')} does not follow version {at}")
            break
        view = apply(view, event["json"])
        at = event["json"]["to"]
    control = await netlib.connect(args.port)
    rows = (await netlib.fetch(control, "GET", f"/v1/lists/{name}/rows")).json()["rows"]
    conn.close()
    if view != rows:
        problems.append("the view built from the events is not GET rows")
    # Past the kernel's bytes come the event the server held when the socket filled (partly or
    # not at all sent; computed during the writes, so it ends before `last`, or it was the last
    # one needed), then what it computed when the socket drained: after the writes, so up to `last`.
    in_kernel = [e for e in after if e["_end"] <= boundary]
    past = after[len(in_kernel):]
    held = past[:1] if past and (past[0]["_start"] < boundary or past[0]["json"]["to"] < last) else []
    drained = past[len(held):]
    return {"scenario": "sse-paused", "writes": args.writes, "paused_s": round(time.perf_counter() - paused_at, 2),
            "rss_before_kb": rss_before, "rss_after_kb": rss_after, "rss_growth_kb": rss_after - rss_before,
            "kernel_send_queue_bytes": server_queue, "kernel_receive_queue_bytes": client_queue,
            "events_after_resume": len(after), "kernel_buffered_events": len(in_kernel),
            "server_held_events": len(held), "after_drain_events": len(drained),
            "after_drain_span": sum(e["json"]["to"] - e["json"]["from"] for e in drained),
            "mean_event_bytes": round(sum(e["_end"] - e["_start"] for e in after) / max(1, len(after))),
            "last_version": last, "view_exact": view == rows,
            "max_span": max(e["json"]["to"] - e["json"]["from"] for e in after),
            "problems": problems, "problem_count": len(problems)}


def parse_args(argv):
    """Command line; see --help."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    for mode in ("fanout", "longpoll", "paused"):
        one = sub.add_parser(mode)
        one.add_argument("--port", type=int, required=True)
        one.add_argument("--pid", type=int, required=True, help="server PID, for VmRSS and CPU ticks")
        one.add_argument("--prefix", default=mode, help="list name (or name prefix with --lists > 1)")
        one.add_argument("--lists", type=int, default=1)
        one.add_argument("--per-list", type=int, default=10000)
        one.add_argument("--base-calls", type=int, default=20)
        one.add_argument("--writes", type=int, default=5000, help="paused: writes while the reader pauses")
        one.add_argument("--pause", type=float, default=30.0, help="paused: seconds the reader reads nothing")
        one.add_argument("--answer-timeout", type=float, default=10.0)
        one.add_argument("--settle", type=float, default=0.5)
        one.add_argument("--idle-timeout", type=float, default=60.0,
                         help="paused: the server's --idle-timeout, to name the cause of a close")
        one.add_argument("--receive-buffer", type=int, default=131072, help="paused: the reader's SO_RCVBUF")
        netlib.add_hold_reads_argument(one)  # fanout and longpoll
    return parser.parse_args(argv)


def main(argv) -> int:
    """Runs one scenario and prints its JSON result."""
    args = parse_args(argv)
    netlib.raise_nofile(20000)
    runner = {"fanout": fanout, "longpoll": longpoll_fanout, "paused": paused}[args.mode]
    result = asyncio.run(asyncio.wait_for(runner(args), 300))
    print(json.dumps(result), flush=True)
    return 1 if "error" in result or result.get("problem_count") else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
