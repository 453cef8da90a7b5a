#!/usr/bin/env python3
"""Parsing and reporting helpers for Benchmarks/run (standard library only).

  get FILE KEY...          prints the JSON values of KEY in FILE (one JSON object; "n/a" if absent;
                           a dotted KEY such as rows50.gzip reaches into nested objects)
  wrk FILE...              prints "req_per_s p99_ms problems timeouts cpu_us best_req_per_s
                           best_p99_ms best_cpu_us" over several `wrk --latency` outputs (rounds):
                           the mean req/s, mean p99 and mean server CPU µs per request (from a
                           `server_cpu_ticks:` line), how many non-2xx answers and socket errors
                           they had in all, how many wrk timeouts, then the best round of each
  logtimes LOG PATH A B    prints "median_ms p99_ms count" of duration_ms of the access-log lines for
                           PATH (logged without query) between byte offsets A and B of LOG
  diffrows JSONL           prints figure rows (TSV) for the JSON lines of `recents-bench all`
  render TSV META OUT      writes the Markdown results from figure rows and KEY=VALUE metadata
  section RUN RESULTS TITLE  puts the results RUN of one `run --only` into RESULTS as the section
                           "## TITLE" (its headings one level down), before "## Web client" and in
                           place of an earlier section of that title; a full run drops it again,
                           since it keeps only what starts at "## Web client" (its rows are then in
                           the main table)

A figure row is tab-separated: group, figure, unit, recents, anchor, anchor name, target, cause.
A target is a comma-separated list of checks, each `le:X` (Recents ≤ X), `ratio_ge:X` or
`ratio_le:X` (Recents ÷ anchor), or `speedup_ge:X` (anchor ÷ Recents); empty means "reported
only". Bash stays a sequence of steps, and the arithmetic lives here where it can be read.
"""

import json
import os
import re
import statistics
import sys

import netlib

UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def number(text):
    """A float, or None for "n/a" and other non-numbers."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def cmd_get(path, keys):
    """JSON values by key; "n/a" when the file or the key is missing, so a broken step leaves
    a hole in the table instead of stopping the report."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.loads(handle.read().strip().splitlines()[-1])
    except (OSError, ValueError, IndexError):
        data = {}
    def member(key):
        value = data
        for part in key.split("."):
            value = value.get(part, "n/a") if isinstance(value, dict) else "n/a"
        return value

    print(" ".join(str(member(key)).lower() for key in keys))


def parse_wrk(path):
    """(req/s, p99 ms, problems) of one wrk --latency report; None for what is missing."""
    text = open(path, encoding="utf-8", errors="replace").read()
    rps = re.search(r"Requests/sec:\s+([\d.]+)", text)
    p99 = re.search(r"^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$", text, re.M)
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    counts = [int(g) for g in errors.groups()] if errors else [0, 0, 0, 0]
    problems = (int(non2xx.group(1)) if non2xx else 0) + sum(counts[:3])
    requests = re.search(r"^\s*(\d+) requests in", text, re.M)
    ticks = re.search(r"^server_cpu_ticks: (\d+)", text, re.M)
    cpu_us = None
    if requests and ticks and int(requests.group(1)):
        cpu_us = int(ticks.group(1)) * 1e6 / os.sysconf("SC_CLK_TCK") / int(requests.group(1))
    return (float(rps.group(1)) if rps else None,
            float(p99.group(1)) * UNITS_MS[p99.group(2)] if p99 else None,
            problems if rps else 1, counts[3], cpu_us)


def rounded(value, digits):
    """`value` rounded for the table, or "n/a"."""
    return "n/a" if value is None else round(value, digits)


def cmd_wrk(paths):
    """Means over rounds first: on a shared host one lucky round says little, and a ratio of two
    bests compares two outliers. The best round of each figure follows (taken independently), then
    all problems (non-2xx, connect/read/write errors) and, apart, wrk's timeouts (requests slower
    than --timeout: a stalled machine, not a wrong answer)."""
    runs = [parse_wrk(p) for p in paths]
    rps = [r[0] for r in runs if r[0] is not None]
    p99 = [r[1] for r in runs if r[1] is not None]
    cpu = [r[4] for r in runs if r[4] is not None]

    def mean(values):
        return statistics.fmean(values) if values else None

    print(rounded(mean(rps), 2), rounded(mean(p99), 3), sum(r[2] for r in runs), sum(r[3] for r in runs),
          rounded(mean(cpu), 2), max(rps) if rps else "n/a", rounded(min(p99) if p99 else None, 3),
          rounded(min(cpu) if cpu else None, 2))


def cmd_logtimes(path, wanted, start, end):
    """Server-side time of the requests for one path within a byte range of the log."""
    pattern = re.compile(r'path=("(?:[^"\\]|\\.)*"|\S+).*?duration_ms=([\d.]+)')
    times = []
    with open(path, "rb") as log:
        log.seek(int(start))
        chunk = log.read(int(end) - int(start)).decode("utf-8", errors="replace")
        for line in chunk.splitlines():
            if "msg=request" not in line:
                continue
            match = pattern.search(line)
            if not match:
                continue
            logged = match.group(1)
            if logged.startswith('"'):
                logged = json.loads(logged)
            if logged == wanted:
                times.append(float(match.group(2)))
    if not times:
        print("n/a n/a 0")
        return
    print(round(statistics.median(times), 3), round(netlib.percentile(times, 0.99), 3), len(times))


def diff_target(bench, n):
    """Issue 7's targets for the recents-bench figures (others are reported only): the diff
    targets hold for both paths (fast: deletes, inserts, updates; general: plus 1% moves, the
    issue's workload), rows building at 100k calls for any page limit."""
    if bench == "diff" and n == 10000:
        return "le:1.5,speedup_ge:40"
    if n == 100000 and bench in ("diff", "rows"):
        return "le:30"
    return ""


def diff_row(data):
    """(figure, recents, anchor, anchor name) for one recents-bench JSON line."""
    bench = str(data["bench"])
    median = data.get("median_ms")
    if bench == "diff":
        label = f"diff n={data.get('n')}" + (f" ({data['path']})" if data.get("path") else "")
        return label, median, data.get("stdlib_median_ms"), "Swift difference(from:).inferringMoves()"
    if bench == "rows":
        limit = data.get("limit")
        label = f"rows building, {data.get('calls')} calls, limit {limit if limit is not None else 'all'}"
        return label, median, None, "—"
    if bench == "json":
        label = f"JSON of an initial transition, {data.get('rows')} rows ({data.get('bytes')} bytes)"
        return label, median, data.get("foundation_median_ms"), "Foundation JSONEncoder"
    if bench in ("jwt", "jwks"):
        kind = "JWT" if bench == "jwt" else "JWKS"
        label = f"{kind} {data.get('operation')}, per token ({data.get('us_per_op')} µs)"
        return label, median, None, "—"
    if bench == "ratelimit":
        label = f"rate limiter: {data.get('operation')}, per request ({data.get('ns_per_op')} ns)"
        return label, median, None, "—"
    return f"{bench} {data.get('n', '')}".strip(), median, data.get("stdlib_median_ms"), "stdlib"


def cmd_diffrows(path):
    """Figure rows from recents-bench's JSON lines; lines that are not JSON objects with a
    "bench" member are skipped, so its table, banners or progress text do not break the report."""
    rows = 0
    for line in open(path, encoding="utf-8", errors="replace"):
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if not isinstance(data, dict) or "bench" not in data:
            continue
        label, median, anchor, anchor_name = diff_row(data)
        if data.get("cpu_median_ms") is not None:
            label += f" median (thread CPU {data['cpu_median_ms']} ms)"
        else:
            label += " median"
        size = data.get("n", data.get("calls"))
        anchor_text = "n/a" if anchor is None else str(anchor)
        print("\t".join(["1 Diff", label, "ms", "n/a" if median is None else str(median), anchor_text,
                         anchor_name if anchor is not None else "—", diff_target(str(data["bench"]), size), ""]))
        rows += 1
    if rows == 0:
        print("\t".join(["1 Diff", "recents-bench all", "ms", "n/a", "n/a", "—", "", "no JSON figures"]))


def ratio(recents, anchor):
    """Recents ÷ anchor, or None."""
    if recents is None or anchor is None or anchor == 0:
        return None
    return recents / anchor


def check(spec, recents, anchor):
    """True/False per the target spec, None when it cannot be decided (missing numbers)."""
    verdicts = []
    for part in filter(None, spec.split(",")):
        kind, _, bound = part.partition(":")
        limit = float(bound)
        r = ratio(recents, anchor)
        value = {"le": recents, "ratio_ge": r, "ratio_le": r,
                 "speedup_ge": (1 / r) if r else None}[kind]
        if value is None:
            return None
        verdicts.append(value <= limit if kind in ("le", "ratio_le") else value >= limit)
    return all(verdicts) if verdicts else None


def describe(spec, unit):
    """The target in words."""
    words = []
    for part in filter(None, spec.split(",")):
        kind, _, bound = part.partition(":")
        words.append({"le": f"≤ {bound} {unit}", "ratio_ge": f"ratio ≥ {bound}",
                      "ratio_le": f"ratio ≤ {bound}", "speedup_ge": f"≥ {bound}× faster"}[kind])
    return "; ".join(words) or "— (reported)"


def fmt(value):
    """A compact number."""
    if value is None:
        return "n/a"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def cmd_render(tsv, meta_path, out):
    """The Markdown report: metadata, one table row per figure, then a cause line per miss."""
    meta = dict(line.rstrip("\n").split("=", 1) for line in open(meta_path, encoding="utf-8") if "=" in line)
    rows = [line.rstrip("\n").split("\t") for line in open(tsv, encoding="utf-8") if line.strip()]
    lines = [f"# Recents benchmark results{meta.get('title_suffix', '')}", "",
             "Produced by `Benchmarks/run` (see `Benchmarks/README.md`). Ratio = Recents ÷ anchor, measured "
             "side by side in the same run; the target column says which way is good.", "",
             "| | |", "|---|---|"]
    for key in ("date", "commit", "command", "machine", "cpu", "kernel", "memory", "tools", "duration", "load"):
        lines.append(f"| {key} | {meta.get(key, 'n/a')} |")
    lines += ["", "| group | figure | Recents | anchor | ratio | target | result |", "|---|---|---|---|---|---|---|"]
    misses = []
    for row in rows:
        group, figure, unit, rec, anc, anc_name, spec, cause = (row + [""] * 8)[:8]
        recents, anchor = number(rec), number(anc)
        verdict = check(spec, recents, anchor)
        result = "—" if not spec else {True: "pass", False: "**miss**", None: "not measured"}[verdict]
        anchor_text = f"{fmt(anchor)} {unit} ({anc_name})" if anc_name not in ("", "—") else "—"
        r = ratio(recents, anchor)
        lines.append(f"| {group} | {figure} | {fmt(recents)} {unit} | {anchor_text} | "
                     f"{fmt(r) + '×' if r is not None else '—'} | {describe(spec, unit)} | {result} |")
        if verdict is False or (spec and verdict is None):
            misses.append((figure, cause))
    lines += ["", "## Misses and their causes", ""]
    if not misses:
        lines.append("None.")
    for figure, cause in misses:
        lines.append(f"- **{figure}**: {cause or 'CAUSE NOT YET FOUND: needs profiling (see README, Profiling).'}")
    notes = meta.get("notes", "")
    if notes:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in notes.split(" | ")]
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def cmd_section(run_path, results_path, title):
    """Keeps a partial run's figures apart from the full run's table, so that nobody mistakes
    them for rows measured in the run the header describes."""
    run = open(run_path, encoding="utf-8").read().splitlines()
    section = [f"## {title}", "",
               "Measured alone by the run described just below, not by the run described at the top of this file.",
               ""]
    body = run[1:]
    while body and not body[0].strip():
        body.pop(0)
    section += [("#" + line) if line.startswith("#") else line for line in body]
    while section and not section[-1].strip():
        section.pop()
    lines = open(results_path, encoding="utf-8").read().splitlines()
    if f"## {title}" in lines:
        start = lines.index(f"## {title}")
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        del lines[start:end]
    at = next((i for i, line in enumerate(lines) if line.startswith("## Web client")), len(lines))
    lines[at:at] = section + [""]
    with open(results_path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def cmd_samebody(base_path, recents_path):
    """Whether a base server's answer is Recents' but for the epoch and members added since (the
    v1 contract only grows): prints `same`, `additive BYTES MEMBERS` or `differ`."""
    with open(base_path, "rb") as handle:
        base_bytes = handle.read()
    with open(recents_path, "rb") as handle:
        recents_bytes = handle.read()
    if len(base_bytes) == len(recents_bytes):
        print("same")
        return
    base, recents = json.loads(base_bytes), json.loads(recents_bytes)
    added = sorted(set(recents) - set(base))
    trimmed = {k: v for k, v in recents.items() if k in base and k != "epoch"}
    if trimmed != {k: v for k, v in base.items() if k != "epoch"}:
        print("differ")
        return
    print(f"additive {len(recents_bytes) - len(base_bytes)} {','.join(added)}")


def main(argv):
    """Dispatches a subcommand."""
    commands = {"get": lambda a: cmd_get(a[0], a[1:]), "wrk": cmd_wrk,
                "logtimes": lambda a: cmd_logtimes(*a[:4]), "diffrows": lambda a: cmd_diffrows(a[0]),
                "render": lambda a: cmd_render(a[0], a[1], a[2]),
                "section": lambda a: cmd_section(a[0], a[1], a[2]),
                "samebody": lambda a: cmd_samebody(a[0], a[1])}
    if not argv or argv[0] not in commands:
        print(__doc__, file=sys.stderr)
        return 2
    commands[argv[0]](argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
