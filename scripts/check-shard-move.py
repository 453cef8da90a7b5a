#!/usr/bin/env python3
"""Online bucket move check for Recents on two PostgreSQL shards (issue 43, item 4).

usage: scripts/check-shard-move.py [BINARY] [--writers 16] [--lists 8] [--before S] [--after S]
           [--max-fence S] [--keep]

Starts two throwaway clusters (scripts/postgres-cluster.sh), a placement file putting buckets
0-2047 on shard a and 2048-4095 on shard b, and two `recents serve --placement` instances. It
picks --lists lists that share one bucket of shard a; 16 writers post calls to them through both
instances, each with its own Idempotency-Key, retrying the same bytes with the same key after a
503 (as a careful client does), and one event stream per list and instance follows them, like a
browser's EventSource. After --before seconds it runs `recents shards move BUCKET --to b`; the
writers go on for --after seconds, then stop, and it checks, naming each check that fails (exit 1
when any does):

  move-succeeded             the move exited 0, with a line per phase on its stderr (a pipe)
  fence-under-Ss             the move's own fence measurement is at most --max-fence (1 s)
  writers-fence-under-Ss     from the writers' view: from the first 503 "is moving" to the last, at
                             most --max-fence plus one retry interval
  only-201-or-503            no write was answered anything but 201 or 503 (bucket-moving)
  all-writes-settled         every write was acknowledged before the writers gave up
  acknowledged-writes-present every acknowledged write answers 200 on both instances
  no-lost-or-double-writes   each list holds exactly its acknowledged calls, and its version is
                             the number of them (each write made one version; none stored twice)
  bucket-on-shard-b          both instances answer from shard b (the source no longer has the lists)
  streams-never-refused      no stream was answered other than 200
  streams-no-resync          no stream saw a resync (410) or an event not chained on the one before
  streams-reached-final      every stream shows its list's final version: its last event is that
                             version, or the instance has nothing to send from its last event
"""

import argparse
import hashlib
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ha_checks  # noqa: E402
import ha_traffic  # noqa: E402
from checklib import FAILURES, check, free_port, start, stop  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def bucket(name):
    """The bucket of a list: the first 8 bytes of SHA-256 of its name, big-endian, modulo 4,096."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") % 4096


def lists_of_one_bucket(count, run_id):
    """`count` list names sharing one bucket below 2048 (shard a)."""
    first = next(f"mv-{run_id}-{i}" for i in range(100000) if bucket(f"mv-{run_id}-{i}") < 2048)
    wanted = bucket(first)
    names, i = [first], 0
    while len(names) < count:
        i += 1
        name = f"mv-{run_id}-x{i}"
        if bucket(name) == wanted:
            names.append(name)
    return wanted, names


def get_json(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"{}")
    finally:
        conn.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary", nargs="?", default=".build/debug/recents")
    parser.add_argument("--writers", type=int, default=16)
    parser.add_argument("--lists", type=int, default=8)
    parser.add_argument("--before", type=float, default=4.0)
    parser.add_argument("--after", type=float, default=4.0)
    parser.add_argument("--max-fence", type=float, default=1.0)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    root = tempfile.mkdtemp(prefix="recents-shard-move-")
    os.chmod(root, 0o755)
    clusters = [os.path.join(root, f"pg-{name}") for name in ("a", "b")]
    instances, streams, logs = [], [], []
    try:
        uris = []
        for directory in clusters:
            made = subprocess.run(["bash", os.path.join(HERE, "postgres-cluster.sh"), "start", directory],
                                  check=True, capture_output=True, text=True)
            uris.append(made.stdout.strip().splitlines()[-1])
        placement = os.path.join(root, "placement.json")
        with open(placement, "w") as f:
            json.dump({"shards": {"a": uris[0], "b": uris[1]},
                       "buckets": [{"from": 0, "to": 2047, "shard": "a"}, {"from": 2048, "to": 4095, "shard": "b"}]},
                      f)
        run_id = f"{random.getrandbits(32):08x}"
        moving, lists = lists_of_one_bucket(args.lists, run_id)
        print(f"bucket {moving}: {len(lists)} lists; shards {uris[0]} and {uris[1]}", flush=True)
        ports = []
        for name in ("one", "two"):
            port = free_port()
            log = open(os.path.join(root, f"{name}.log"), "w")
            logs.append(log)
            instances.append(start(
                [binary, "serve", "--placement", placement, "--host", "127.0.0.1", "--port", str(port),
                 "--auth", "none", "--sse-max-age", "3600", "--sse-heartbeat", "2", "--log-level", "warn"],
                port, log, dict(os.environ), root, f"instance {name}"))
            ports.append(port)

        streams = [ha_traffic.EventStream(n, ports[n % 2], lists[n % len(lists)], 0.5, 10)
                   for n in range(2 * len(lists))]
        for stream in streams:
            stream.start()
        writers = ha_traffic.Writers(args.writers, ports, lists, run_id, retry_delay=0.05)
        writers.start()
        time.sleep(args.before)
        moved = subprocess.run(
            [binary, "shards", "move", str(moving), "--to", "b", "--placement", placement, "--grace", "3"],
            capture_output=True, text=True, timeout=120)
        print(moved.stderr, end="", flush=True)
        print(moved.stdout, end="", flush=True)
        time.sleep(args.after)
        writers.stop()

        check(moved.returncode == 0 and "fencing writes" in moved.stderr and "switched the placement" in moved.stderr,
              "move-succeeded")
        fence = None
        for line in moved.stdout.splitlines():
            if "writes fenced for " in line:
                fence = int(line.rsplit("writes fenced for ", 1)[1].split()[0]) / 1000
        check(fence is not None and fence <= args.max_fence,
              f"fence-under-{args.max_fence:g}s (the move measured {fence} s)")
        refusals = [(t, detail) for t, kind, detail, retry in writers.refused if kind == "bucket-moving" and retry]
        fenced = [t for t, detail in refusals if "is moving" in detail]
        seen = (max(fenced) - min(fenced)) if fenced else 0.0
        check(seen <= args.max_fence + writers.retry_delay,
              f"writers-fence-under-{args.max_fence:g}s ({len(fenced)} refusals over {seen:.3f} s; "
              f"{len(refusals) - len(fenced)} more after the switch, which each instance answered before it found the new shard in the file)")
        check(not writers.unexpected and len(refusals) == len(writers.refused),
              f"only-201-or-503 {writers.unexpected[:3]} {[r for r in writers.refused if r[1] != 'bucket-moving'][:3]}")
        check(not writers.unsettled, f"all-writes-settled ({len(writers.unsettled)} not)")
        acks = {}
        for ack in writers.acks:
            acks.setdefault(ack.key, ack)
        acked = list(acks.values())
        missing = {port: ha_traffic.missing_calls(port, acked) for port in ports}
        check(all(not m for m in missing.values()),
              f"acknowledged-writes-present ({len(acked)} writes; missing {[len(m) for m in missing.values()]})")
        per_list = {lst: [a for a in acked if a.list == lst] for lst in lists}
        finals, exact = {}, True
        for lst, list_acks in per_list.items():
            versions = sorted(a.version for a in list_acks)
            for port in ports:
                status, info = get_json(port, f"/v1/lists/{lst}")
                exact &= status == 200 and info.get("callCount") == len(list_acks) \
                    and info.get("version") == len(list_acks) and versions == list(range(1, len(list_acks) + 1))
                finals[lst] = info.get("version")
        check(exact, "no-lost-or-double-writes")
        source_versions = subprocess.run(
            ["psql", uris[0], "-Atc", f"SELECT count(*) FROM lists WHERE name LIKE 'mv-{run_id}-%'"],
            capture_output=True, text=True)
        check(source_versions.stdout.strip() == "0", f"bucket-on-shard-b (shard a holds {source_versions.stdout.strip()})")

        # A write whose call falls outside a stream's view sends it no event: then the instance
        # must have nothing to send from the stream's last event (ha_checks.shows_final).
        deadline = time.time() + 10
        while time.time() < deadline and not all(ha_checks.shows_final(s, finals[s.list]) for s in streams):
            time.sleep(0.1)
        check(all(not s.refusals for s in streams), "streams-never-refused")
        check(all(not s.errors for s in streams),
              f"streams-no-resync {[e for s in streams for e in s.errors][:3]}")
        behind = [(s.list, s.last_to, finals[s.list]) for s in streams if not ha_checks.shows_final(s, finals[s.list])]
        check(not behind, f"streams-reached-final {behind[:3]}")
        print(f"{len(acked)} writes acknowledged, {len(refusals)} answered 503 bucket-moving first", flush=True)
    finally:
        for stream in streams:
            stream.close()
        for process in instances:
            stop(process)
        for log in logs:
            log.close()
        for directory in clusters:
            if os.path.isdir(directory):
                subprocess.run(["bash", os.path.join(HERE, "postgres-cluster.sh"), "stop", directory],
                               capture_output=True)
        if args.keep or FAILURES:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
