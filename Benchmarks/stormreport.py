"""The arithmetic of storm.py: joins the writer's records with the streams' events and connection
records into the storm's figures (standard library only).

Writer record: [list index, due ns, first send ns, last send ns, ack ns, version, attempts,
replayed, status]. Stream connection record: see stormstreams (SCHEDULED ... RETRY). Events:
(stream index, from, to, kernel ns), `to` -1 for a resync. All times are CLOCK_REALTIME ns, the
clock of the kernel's receive timestamps, so the processes' figures can be compared.
"""

import netlib
from stormstreams import ATTEMPT, END, FIRST, FIRST_FROM, FIRST_TO, REASON, RETRY, SCHEDULED, SENT_ID, STATUS

LIST, DUE, FIRST_SEND, LAST_SEND, ACK, VERSION, ATTEMPTS, REPLAYED, WRITE_STATUS = range(9)


def spread(values: list, scale: float = 1.0, digits: int = 3) -> dict:
    """p10, p50, p90, p99 and max of `values` ÷ `scale` (None when empty)."""
    if not values:
        return {"n": 0}
    out = {"n": len(values)}
    for name, fraction in (("p10", 0.10), ("p50", 0.50), ("p90", 0.90), ("p99", 0.99)):
        out[name] = round(netlib.percentile(values, fraction) / scale, digits)
    out["min"] = round(min(values) / scale, digits)
    out["max"] = round(max(values) / scale, digits)
    return out


def merge(dumps: list) -> tuple:
    """The streams of every process as one list: (list index per stream, connection records per
    stream, events with global stream indices, problems)."""
    lists, connections, events, problems = [], [], [], []
    for dump in dumps:
        offset = len(lists)
        lists += dump["lists"]
        connections += dump["connections"]
        events += [(offset + s, start, to, stamp) for s, start, to, stamp in dump["events"]]
        problems += dump["problems"]
    return lists, connections, events, problems


def steady_figures(writes: list, lists: list, events: list, steady: dict, until_ns: int, per_list: int) -> dict:
    """Delivery times, deliveries against expectations and CPU per event in the steady window."""
    window = (steady["from_ns"], steady["to_ns"])
    wanted = {}
    for record in writes:
        if window[0] <= record[FIRST_SEND] <= window[1] and record[ACK] and record[ATTEMPTS] == 1:
            wanted[(record[LIST], record[VERSION])] = record[FIRST_SEND]
    latencies, in_window, coalesced = [], 0, 0
    for stream, start, to, stamp in events:
        if start is None or to < 0:
            continue
        if window[0] <= stamp <= window[1]:
            in_window += 1
            coalesced += to - start > 1
        if stamp >= until_ns:
            continue
        for version in range(start + 1, to + 1):
            sent = wanted.get((lists[stream], version))
            if sent is not None:
                latencies.append(stamp - sent)
    seconds = (window[1] - window[0]) / 1e9
    sent_in_window = sum(1 for r in writes if window[0] <= r[FIRST_SEND] <= window[1])
    result = {"seconds": round(seconds, 2), "writes_sent": sent_in_window,
              "writes_per_s": round(sent_in_window / seconds, 1), "expected": len(wanted) * per_list,
              "delivered": len(latencies), "events_in_window": in_window, "coalesced_events": coalesced,
              "cpu_us_per_event": round(steady["cpu_ns"] / 1000 / in_window, 2) if in_window else "n/a",
              "rss_kb": steady["rss_kb"],
              "writer_lag_ms": spread([r[FIRST_SEND] - r[DUE] for r in writes
                                       if window[0] <= r[FIRST_SEND] <= window[1]], 1e6)}
    result.update({f"{k}_ms": v for k, v in spread(latencies, 1e6).items() if k != "n"})
    return result


def phase_figures(phase: dict, end_ns: int, writes: list, lists: list, connections: list,
                  events: list) -> tuple:
    """The figures of one restart (and its problems): from its signal to `end_ns`."""
    stop, exit_ns, healthy = phase["stop_ns"], phase["exit_ns"], phase["healthy_ns"]
    acked_before = {}
    for record in writes:
        if record[ACK] and record[ACK] < stop:
            acked_before[record[LIST]] = max(acked_before.get(record[LIST], 0), record[VERSION])
    problems = []
    back, gaps_from_dropped, first_attempts, attempts, lags, retries, answered = [], [], [], [], [], [], []
    refused = non_200 = not_back = short = 0
    statuses = {}
    for stream, records in enumerate(connections):
        before = [r for r in records if r[ATTEMPT] < stop]
        mine = [r for r in records if stop <= r[ATTEMPT] < end_ns]
        if before and before[-1][RETRY] is not None:
            retries.append(before[-1][RETRY])
        dropped = before[-1][END] if before and before[-1][END] else None
        if mine:
            attempts += [r[ATTEMPT] for r in mine]
            first_attempts.append(mine[0][ATTEMPT])
            if dropped is not None:
                gaps_from_dropped.append(mine[0][ATTEMPT] - dropped)
            lags += [r[ATTEMPT] - r[SCHEDULED] for r in mine]
        for r in mine:
            refused += r[REASON].startswith("connect:")
            if r[STATUS] not in (0, 200):
                non_200 += 1
                statuses[r[STATUS]] = statuses.get(r[STATUS], 0) + 1
        catch = next((r for r in mine if r[ATTEMPT] >= exit_ns and r[FIRST]), None)
        if catch is None:
            not_back += 1
            continue
        back.append(catch[FIRST] - healthy)
        answered.append(catch[FIRST] - catch[ATTEMPT])
        if catch[FIRST_FROM] != catch[SENT_ID]:
            problems.append(f"{phase['name']}: stream {stream} sent Last-Event-ID version {catch[SENT_ID]} and "
                            f"got an event from {catch[FIRST_FROM]}")
        if catch[FIRST_TO] < acked_before.get(lists[stream], 0):
            short += 1
    if not_back:
        problems.append(f"{phase['name']}: {not_back} streams not back before the step went on")
    if short:
        problems.append(f"{phase['name']}: {short} catch-up events short of a write acknowledged before the restart")
    resyncs = sum(1 for _, _, to, stamp in events if to < 0 and stop <= stamp < end_ns)
    peak = {}
    for at in attempts:
        peak[(at - stop) // 100_000_000] = peak.get((at - stop) // 100_000_000, 0) + 1
    mine_writes = [r for r in writes if stop <= r[FIRST_SEND] < end_ns or (r[ACK] and stop <= r[ACK] < end_ns)]
    acks = sorted(r[ACK] for r in writes if r[ACK] and stop - 10**9 <= r[ACK] < end_ns)
    figures = {
        "kind": phase["kind"], "honour_retry": phase["honour_retry"],
        "signal_to_exit_ms": round((exit_ns - stop) / 1e6, 1),
        "exec_to_healthz_ms": round((healthy - phase["exec_ns"]) / 1e6, 1),
        "signal_to_healthz_s": round((healthy - stop) / 1e9, 3),
        "all_back_after_healthz_s": round((phase["answered_ns"] - healthy) / 1e9, 3),
        "server_cpu_s": round(phase["server_cpu_s"], 2), "clients_cpu_s": round(phase["clients_cpu_s"], 2),
        "back_s": round(max(back) / 1e9, 3) if back else "n/a",
        "back": spread(back, 1e9),
        "connect_to_catch_up_ms": spread(answered, 1e6),
        "listen_drops": phase["listen_drops"],
        "streams_back": len(back), "attempts": len(attempts), "refused": refused, "non_200": non_200,
        "statuses": statuses, "resyncs": resyncs,
        "reconnect_after_drop_s": spread(gaps_from_dropped, 1e9),
        "first_attempt_after_signal_s": spread([a - stop for a in first_attempts], 1e9),
        "peak_attempts_per_100ms": max(peak.values()) if peak else 0,
        "client_lag_ms": spread(lags, 1e6),
        "streams_with_retry": len(retries),
        "retry_ms": spread(retries) if retries else {"n": 0},
        "writes_resent": sum(1 for r in mine_writes if r[ATTEMPTS] > 1),
        "writes_replayed": sum(1 for r in mine_writes if r[REPLAYED]),
        "longest_ack_gap_s": round(max((b - a for a, b in zip(acks, acks[1:])), default=0) / 1e9, 3),
    }
    return figures, problems


def chain_problems(connections: list, events: list) -> list:
    """Streams whose events do not chain: every event's `from` is the `to` before it, across
    reconnects too (a resync, counted apart, restarts the chain)."""
    last = {}
    problems = []
    for stream, start, to, _ in events:
        if to < 0:
            last[stream] = None
            continue
        if stream in last and last[stream] is not None and start != last[stream]:
            problems.append(f"stream {stream}: event from {start} after one to {last[stream]}")
        last[stream] = to
    return problems


def analyse(args, writes: list, dumps: list, steady: dict, phases: list, end_ns: int, alone: dict) -> dict:
    """Every figure of the storm, and the problems that make the run broken."""
    lists, connections, events, problems = merge(dumps)
    problems = list(problems)
    first_stop = phases[0]["stop_ns"] if phases else end_ns
    result = {"scenario": "storm", "lists": args.lists, "per_list": args.per_list, "rate": args.rate,
              "default_retry_s": args.default_retry,
              "steady": steady_figures(writes, lists, events, steady, first_stop, args.per_list),
              "writes_alone": alone}
    steady_result = result["steady"]
    if steady_result["events_in_window"]:
        # What the events cost beyond the writes that caused them, with the writes alone as anchor.
        net = steady["cpu_ns"] / 1000 - alone["cpu_us_per_write"] * steady_result["writes_sent"]
        steady_result["net_cpu_us_per_event"] = round(net / steady_result["events_in_window"], 2)
    for k, phase in enumerate(phases):
        until = phases[k + 1]["stop_ns"] if k + 1 < len(phases) else end_ns
        figures, found = phase_figures(phase, until, writes, lists, connections, events)
        result[phase["name"]] = figures
        problems += found
    problems += chain_problems(connections, events)
    result["resyncs_total"] = sum(1 for e in events if e[2] < 0)
    result["problems"] = problems
    return result


KINDS = {"term": "SIGTERM restart", "kill": "kill -9 restart"}


def rows(result: dict) -> list:
    """Benchmarks/run's figure rows (group, figure, unit, recents, anchor, anchor name, target,
    cause) for one storm result; a restart's round that honours `retry:` beside the same restart
    ignoring it (the anchor), so the table shows what the server's `retry:` changes."""
    group = "9 Storm"
    out = []
    streams, lists = result.get("streams", "n/a"), result.get("lists", "n/a")
    steady = result.get("steady", {})
    load = f"{streams} streams over {lists} lists, {result.get('rate', 0):g} writes/s for {steady.get('seconds')} s"

    def row(figure, unit, recents, anchor="n/a", anchor_name="—", target=""):
        out.append([group, figure, unit, _text(recents), _text(anchor), anchor_name, target, ""])

    row(f"{load}: writes sent per s in the window (the writer's pace on this host)", "writes/s",
        steady.get("writes_per_s"), result.get("rate"), "the rate asked for", "")
    # Issue 42, goal 5: at 16,000 streams and 1,000 writes/s, delivery p99 ≤ 20 ms and RSS ≤ 60 MB.
    goal = streams == 16000
    for name in ("p50", "p99", "max"):
        row(f"{load}: write to event, {name} (kernel-stamped)", "ms", steady.get(f"{name}_ms"),
            target="le:20" if goal and name == "p99" else "")
    row(f"{load}: (stream, write) deliveries before the first restart", "events", steady.get("delivered"),
        steady.get("expected"), "every write to each of its list's streams", "ratio_ge:1")
    alone = result.get("writes_alone", {})
    row(f"{load}: server CPU per delivered event, the writes' own CPU included", "µs",
        steady.get("cpu_us_per_event"))
    row(f"{load}: server CPU per delivered event beyond the writes' own (the window's CPU less the writes' at "
        f"the rate of the row below, ÷ events)", "µs", steady.get("net_cpu_us_per_event"))
    row(f"server CPU per write, the same writes at the same rate with no stream open ({alone.get('writes')} writes, "
        f"same server afterwards)", "µs", alone.get("cpu_us_per_write"))
    row(f"server RSS with {streams} streams open (before the writes)", "MB", _mb(result.get("rss_open_kb")),
        target="le:60" if goal else "")
    row(f"server RSS after {steady.get('seconds')} s of writes", "MB", _mb(steady.get("rss_kb")),
        target="le:60" if goal else "")
    for kind, label in KINDS.items():
        honour, ignore = result.get(kind, {}), result.get(f"{kind}_ignore", {})
        versus = ("the same restart, streams ignoring retry: and waiting "
                  f"{result.get('default_retry_s', '?').replace(',', '-')} s")
        retried = honour.get("retry_ms", {})
        seen = "the server sent no retry: field"
        if retried.get("n"):
            seen = (f"{honour.get('streams_with_retry', 0)} streams had a retry: field, "
                    f"{retried.get('min')}-{retried.get('max')} ms")
        row(f"{label}: first healthy /healthz to every stream back and caught up ({seen})", "s",
            honour.get("back_s"), ignore.get("back_s"), versus)
        row(f"{label}: first healthy /healthz to half the streams back (p50)", "s",
            honour.get("back", {}).get("p50"), ignore.get("back", {}).get("p50"), versus)
        gap = honour.get("reconnect_after_drop_s", {})
        row(f"{label}: a stream's first reconnect after its stream ended (p10 {gap.get('p10')}, p50 {gap.get('p50')}, "
            f"p90 {gap.get('p90')} s), max", "s", gap.get("max"), ignore.get("reconnect_after_drop_s", {}).get("max"),
            versus)
        row(f"{label}: peak reconnect attempts in any 100 ms", "attempts", honour.get("peak_attempts_per_100ms"),
            ignore.get("peak_attempts_per_100ms"), versus)
        row(f"{label}: reconnect attempts (refused: {honour.get('refused')} and {ignore.get('refused')})",
            "attempts", honour.get("attempts"), ignore.get("attempts"), versus)
        statuses = {}
        for one in (honour, ignore):
            for status, count in one.get("statuses", {}).items():
                statuses[status] = statuses.get(status, 0) + count
        which = ", ".join(f"{count} x {status}" for status, count in sorted(statuses.items())) or "none"
        row(f"{label}: non-200 answers to reconnects, both rounds ({which})", "answers",
            _sum(honour.get("non_200"), ignore.get("non_200")), target="le:0")
        row(f"{label}: resyncs (event: resync or 410), both rounds", "resyncs",
            _sum(honour.get("resyncs"), ignore.get("resyncs")), target="le:0")
        row(f"{label}: signal to the old server's exit (then exec to first healthy /healthz: "
            f"{honour.get('exec_to_healthz_ms')} ms)", "ms", honour.get("signal_to_exit_ms"),
            ignore.get("signal_to_exit_ms"), versus)
        answered = honour.get("connect_to_catch_up_ms", {})
        row(f"{label}: a successful reconnect's connect to its catch-up event (p50 {answered.get('p50')}, p99 "
            f"{answered.get('p99')} ms), max", "ms", answered.get("max"),
            ignore.get("connect_to_catch_up_ms", {}).get("max"), versus)
        row(f"{label}: handshakes dropped at a full accept queue (TcpExt ListenDrops, counted for the whole host)",
            "drops", honour.get("listen_drops"), ignore.get("listen_drops"), versus)
        lag = honour.get("client_lag_ms", {})
        row(f"{label}: reconnects the Python client started late, p99 (CPU from the signal to the last stream "
            f"back, writes and events included: the clients' {honour.get('clients_cpu_s')} s, the new server's "
            f"{honour.get('server_cpu_s')} s, on {_cores()} cores)", "ms", lag.get("p99"),
            ignore.get("client_lag_ms", {}).get("p99"), versus)
        row(f"{label}: writes sent again (of which answered by an Idempotency-Key replay: "
            f"{honour.get('writes_replayed')})", "writes", honour.get("writes_resent"), ignore.get("writes_resent"),
            versus)
    return out


def _text(value) -> str:
    """A table cell: a number as it is, anything missing as n/a."""
    return "n/a" if value is None or value == "" else str(value)


def _mb(kib):
    """KiB to MiB, rounded."""
    return round(kib / 1024, 2) if isinstance(kib, (int, float)) else None


def _sum(a, b):
    """a + b when both are numbers."""
    return a + b if isinstance(a, (int, float)) and isinstance(b, (int, float)) else None


def _cores() -> int:
    """Cores of this host (the server, the clients and the writer share them)."""
    import os

    return os.cpu_count() or 0
