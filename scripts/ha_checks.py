"""The verdict of scripts/check-postgres-ha.py: each round's figures from what the traffic recorded
(`round_figures`, `print_figures`) and the checks its docstring lists (`checks`); stdlib only.
"""

import json

from ha_pair import get


def shows_final(stream, version):
    """Whether `stream`'s client shows its list at `version`: its last event leads there, or the
    instance it follows has nothing to send from its last event (the writes since then fall outside
    its view, so no event was due)."""
    if stream.last_to is None or stream.last_id is None:
        return False
    if stream.last_to == version:
        return True
    epoch = stream.last_id.rsplit(".", 1)[0]
    status, body = get(stream.port, f"/v1/lists/{stream.list}/transitions?since={stream.last_to}&epoch={epoch}")
    if status != 200:
        return False
    answer = json.loads(body)
    return answer["to"] == version and not (answer["deletes"] or answer["inserts"] or answer["updates"])


def streams_caught_up(acks, streams, t_resumed, t_end):
    """Seconds from each list's first write acknowledged once writes resumed to the moment the last
    of its streams got an event reaching that write's version; the worst list, or None."""
    if t_resumed is None:
        return None
    worst = None
    for lst in {s.list for s in streams}:
        first = min((a for a in acks if a.list == lst and t_resumed <= a.acked <= t_end),
                    key=lambda a: a.acked, default=None)
        if first is None:
            continue
        for stream in (s for s in streams if s.list == lst):
            seen = next((t for t, to in stream.arrivals if to >= first.version), None)
            lag = None if seen is None else max(0.0, seen - first.acked)
            if lag is None:
                return None
            worst = lag if worst is None else max(worst, lag)
    return worst


def round_figures(kind, number, events, t_command, t_done, steady, acks, failures, streams, lost, health):
    """The figures of one failover or switchover round, from everything recorded in its window."""
    t_start = float(events["killed" if kind == "failover" else "switchover"]["at"])
    t_writable = float(events["writable"]["at"])
    window = (t_command, t_done + steady)
    times = sorted(a.acked for a in acks if window[0] - steady <= a.acked <= window[1])
    gap_start = gap_end = None
    for before, after in zip(times, times[1:]):
        if after > t_start and (gap_end is None or after - before > gap_end - gap_start):
            gap_start, gap_end = before, after
    inside = lambda t: window[0] <= t <= window[1]  # noqa: E731
    return {
        "round": f"{kind} {number}" if kind == "failover" else kind,
        "to_writable": t_writable - t_start,
        "recents_share": None if gap_end is None else gap_end - t_writable,
        "to_first_ack": None if gap_end is None else gap_end - t_start,
        "write_gap": None if gap_end is None else gap_end - gap_start,
        "answers_503": sum(1 for t, _, kind_ in failures if kind_ == "503" and inside(t)),
        "broken_connections": sum(1 for t, _, kind_ in failures if kind_ == "connection" and inside(t)),
        "lost": sum(1 for a in lost if inside(a.acked)),
        "stream_ends": sum(1 for s in streams for t, _ in s.ends if inside(t)),
        "stream_refusals": sum(1 for s in streams for t, _, _ in s.refusals if inside(t)),
        "writes_per_s_before": sum(1 for t in times if t_command - steady <= t < t_command) / steady,
        "writes_per_s_after": sum(1 for t in times if t_done <= t < t_done + steady) / steady,
        "streams_caught_up": streams_caught_up(acks, streams, gap_end, window[1]),
        "healthz": "/".join(sorted({label for poller in health for t, label in poller.answers if inside(t)})),
        "window": window,
    }


def print_figures(rounds):
    columns = [("round", "round", "{}"), ("kill→writable", "to_writable", "{:.2f}"),
               ("writable→ack", "recents_share", "{:.2f}"), ("kill→ack", "to_first_ack", "{:.2f}"),
               ("write gap", "write_gap", "{:.2f}"), ("503s", "answers_503", "{}"),
               ("broken", "broken_connections", "{}"), ("lost", "lost", "{}"),
               ("stream ends", "stream_ends", "{}"), ("stream non-200", "stream_refusals", "{}"),
               ("streams caught up", "streams_caught_up", "{:.2f}"), ("/healthz", "healthz", "{}"),
               ("w/s before", "writes_per_s_before", "{:.0f}"), ("w/s after", "writes_per_s_after", "{:.0f}")]
    cells = [[title for title, _, _ in columns]]
    for r in rounds:
        cells.append(["never" if r[key] is None else form.format(r[key]) for _, key, form in columns])
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    print("figures (seconds; for the switchover, 'kill' is the start of `pg_autoctl perform switchover`;"
          " 'streams caught up': from a list's first write after the outage to its last stream showing it):")
    for row in cells:
        print("  " + "  ".join(cell.rjust(width) if i else cell.ljust(width)
                               for i, (cell, width) in enumerate(zip(row, widths))))


def describe(items, limit=3):
    shown = "; ".join(str(item) for item in items[:limit])
    return shown + (f"; … ({len(items)} in all)" if len(items) > limit else "")


def checks(instances, writers, streams, rounds, final, missing, limits, pollers, started):
    """(name, ok, detail) for every check of check-postgres-ha.py's docstring."""
    acks = writers.acks
    results = []
    lost = sorted({(a.list, a.call_id) for port_missing in missing.values() for a, _ in port_missing})
    results.append(("acknowledged-writes-present", not lost,
                     f"{len(acks)} acknowledged writes read back on both instances" if not lost else
                     f"{len(lost)} acknowledged writes missing: " + describe(
                         [f"{name} {a.list}/{a.call_id} answers {status}" for name, port_missing in missing.items()
                          for a, status in port_missing])))
    problems = []
    ids = [(a.list, a.call_id) for a in acks]
    if len(set(ids)) != len(ids):
        problems.append(f"{len(ids) - len(set(ids))} call ids acknowledged twice")
    for lst, per_instance in final.items():
        count = sum(1 for a in acks if a.list == lst)
        for name, info in per_instance.items():
            if info["callCount"] != count:
                problems.append(f"{lst} on {name}: {info['callCount']} calls for {count} acknowledged writes")
    results.append(("no-duplicates", not problems, describe(problems) or "each list holds exactly its acknowledged calls"))
    problems = []
    for lst, per_instance in final.items():
        versions = sorted(a.version for a in acks if a.list == lst)
        if versions != list(range(1, len(versions) + 1)):
            holes = sorted(set(range(1, (versions[-1] if versions else 0) + 1)) - set(versions))
            repeats = len(versions) - len(set(versions))
            problems.append(f"{lst}: acknowledged versions miss {describe(holes)} and repeat {repeats}")
        for name, info in per_instance.items():
            if info["version"] != len(versions):
                problems.append(f"{lst} on {name}: version {info['version']} after {len(versions)} writes")
    results.append(("versions-gap-free", not problems,
                    describe(problems) or f"{len(final)} lists, versions 1..N each, the same on both instances"))
    chain = [(s.n, t, what) for s in streams for t, what in s.errors]
    results.append(("streams-chain", not chain, describe([f"stream {n}: {what}" for n, _, what in chain])
                    or f"{sum(s.events for s in streams)} events, each following the one before"))
    behind = [f"stream {s.n} on {s.list} at {s.last_to}, list at {final[s.list]['a']['version']}"
              for s in streams if not shows_final(s, final[s.list]["a"]["version"])]
    results.append(("streams-reached-final", not behind, describe(behind) or "every stream shows its list's version"))
    refused = [(t, s.n, status, body) for s in streams for t, status, body in s.refusals]
    results.append(("streams-never-refused", not refused,
                    describe([f"stream {n} got {status} {body}" for _, n, status, body in sorted(refused)]) or
                    f"{sum(s.requests for s in streams)} stream requests, all 200"))
    ends = [(t, s.n, how) for s in streams for t, how in s.ends]
    results.append(("streams-stayed-open", not ends,
                    describe([f"stream {n}: {how}" for _, n, how in sorted(ends)]) or "no stream ended before the end"))
    stalled = [r["round"] for r in rounds if r["to_first_ack"] is None]
    results.append(("writes-resumed", not stalled, "no write acknowledged after: " + ", ".join(stalled) if stalled
                    else f"after each of {len(rounds)} rounds"))
    results.append(("only-201-or-503", not writers.unexpected,
                    describe([f"{lst} {key}: {status} {body}" for _, lst, key, status, body in writers.unexpected])
                    or "every write was answered 201 or 503"))
    results.append(("all-writes-settled", not writers.unsettled, describe(writers.unsettled) or
                    "every write was acknowledged in the end"))
    if limits.recents_share is not None:
        slow = [f"{r['round']}: {'never' if r['recents_share'] is None else format(r['recents_share'], '.2f')} s"
                for r in rounds if r["recents_share"] is None or r["recents_share"] > limits.recents_share]
        results.append((f"recents-share-under-{limits.recents_share:g}s", not slow,
                        describe(slow) or "writable→ack within the limit in every failover and the switchover"))
    if limits.switchover_gap is not None:
        slow = [f"{r['write_gap']} s" for r in rounds if r["round"] == "switchover"
                and (r["write_gap"] is None or r["write_gap"] > limits.switchover_gap)]
        results.append((f"switchover-gap-under-{limits.switchover_gap:g}s", not slow,
                        describe(slow) or "the switchover's write gap is within the limit"))
    refused = [f"{name} {label} at {t - started:.1f}s" for name, poller in zip("ab", pollers) for t, label in
               poller.answers if label not in ("ok", "degraded")]
    results.append(("healthz-never-refused", not refused, describe(refused) or
                    f"{sum(len(p.answers) for p in pollers)} polls, all 200"))
    health = {i.name: get(i.port, "/healthz") for i in instances}
    bad = {name: f"{status} {body.decode(errors='replace')}" for name, (status, body) in health.items()
           if status != 200 or json.loads(body).get("status") != "ok"}
    results.append(("healthz-ok", not bad, describe([f"{n}: {v}" for n, v in bad.items()]) or "both say ok"))
    return results
