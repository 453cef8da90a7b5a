#!/usr/bin/env python3
"""Benchmarks/disk.py: disk per call and per list, and WAL per write (docs/CAPACITY.md's inputs).

usage: Benchmarks/disk.py BIN --postgres URI [--lists N] [--calls N] [--writes N]

Not a row group of Benchmarks/run: it measures sizes, not speed, so there is no anchor to put
beside it. It runs `recents serve` (BIN) once on a new SQLite file and once on the PostgreSQL
database at URI (an empty one: scripts/postgres-cluster.sh start DIR prints it), and on each:

  1. seeds --lists lists of --calls calls with `recents seed` (the demo history: a handful of
     peers with short names; seed posts its calls in batches, so a batch is one version);
  2. measures every table with its indexes: SQLite's dbstat after a clean stop (the server's
     last close checkpoints the WAL into the file), PostgreSQL's pg_total_relation_size before
     and after, and divides the growth of `calls` by the calls and of `lists` and
     `list_versions` by the lists;
  3. on PostgreSQL only, posts --writes single-call writes (16 threads, one call per request, the
     shape of a phone reporting a call, with an Idempotency-Key) to the seeded lists twice: first right after a
     CHECKPOINT (the first change to each page after a checkpoint logs the whole 8 KiB page),
     then again (the pages already logged since): WAL bytes per write from pg_current_wal_lsn.
"""

import argparse
import concurrent.futures
import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(binary, db, log):
    """Starts `recents serve` on db and waits for /healthz; returns (process, port)."""
    port = free_port()
    proc = subprocess.Popen(
        [binary, "serve", "--db", db, "--host", "127.0.0.1", "--port", str(port), "--log-level", "warn"],
        stdout=log, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"disk.py: the server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    sys.exit("disk.py: the server did not answer /healthz within 60 s")


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)


def seed(binary, port, lists, calls):
    """Seeds lists disk0..disk{lists-1} with `calls` calls each, four seeds at a time."""
    def one(i):
        subprocess.run([binary, "seed", "--list", f"disk{i}", "--calls", str(calls), "--port", str(port)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        list(pool.map(one, range(lists)))


def post_single(port, lists, writes, tag):
    """Posts `writes` one-call writes over the seeded lists from 16 threads, each on its own
    keep-alive connection."""
    now = int(time.time())
    local = threading.local()

    def one(i):
        if not hasattr(local, "conn"):
            local.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        body = json.dumps({"id": f"w{tag}-{i}", "peer": {"id": "bob", "name": "Bob Lee"},
                           "direction": "incoming", "endReason": "missed",
                           "timestamp": now - i})
        local.conn.request("POST", f"/v1/lists/disk{i % lists}/calls", body=body,
                           headers={"Content-Type": "application/json", "Idempotency-Key": f"k{tag}-{i}"})
        answer = local.conn.getresponse()
        answer.read()
        if answer.status != 201:
            raise RuntimeError(f"POST answered {answer.status}")
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        list(pool.map(one, range(writes)))


def cpu_seconds(pids):
    """User plus system CPU of the processes (ticks of /proc/PID/stat), in seconds."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass  # a backend that ended
    return total / os.sysconf("SC_CLK_TCK")


def pg_pids(uri):
    """The postmaster and its children: every process of the cluster."""
    data = psql(uri, "SHOW data_directory")
    with open(os.path.join(data, "postmaster.pid")) as f:
        postmaster = f.readline().strip()
    pids = [postmaster]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if f.read().rsplit(")", 1)[1].split()[1] == postmaster:
                        pids.append(entry)
            except OSError:
                pass
    return pids


def psql(uri, sql):
    return subprocess.run(["psql", uri, "-AtXqc", sql], check=True, capture_output=True, text=True).stdout.strip()


def pg_sizes(uri):
    rows = psql(uri, "SELECT relname, pg_total_relation_size(oid) FROM pg_class "
                     "WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace")
    return {name: int(size) for name, size in (line.split("|") for line in rows.splitlines())}


def sqlite_sizes(path):
    """Bytes per table, its indexes included (dbstat pages, so free pages are not counted)."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT coalesce(m.tbl_name, d.name), sum(d.pgsize) FROM dbstat d "
                      "LEFT JOIN sqlite_master m ON m.name = d.name GROUP BY 1").fetchall()
    db.close()
    return dict(rows)


def per(sizes_before, sizes_after, table, count):
    return (sizes_after.get(table, 0) - sizes_before.get(table, 0)) / count


def report(label, before, after, lists, calls, total_bytes):
    n = lists * calls
    print(f"{label}: {lists} lists x {calls} calls = {n} calls; database grew {total_bytes / 1e6:.1f} MB")
    for table in sorted(after):
        grown = after[table] - before.get(table, 0)
        print(f"  {table:<18} {grown / 1e6:8.2f} MB")
    print(f"  per call (calls with its indexes): {per(before, after, 'calls', n):.0f} B")
    per_list = per(before, after, "lists", lists) + per(before, after, "list_versions", lists)
    print(f"  per list (lists + list_versions, {calls} calls seeded in batches): {per_list:.0f} B")
    print(f"  everything per call: {total_bytes / n:.0f} B")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--postgres", required=True, help="URI of an empty database")
    parser.add_argument("--lists", type=int, default=100)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--writes", type=int, default=2000)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="recents-disk-")
    log = open(os.path.join(tmp, "server.log"), "w")

    # SQLite: sizes after a clean stop, against the empty database's.
    path = os.path.join(tmp, "disk.sqlite")
    proc, port = serve(args.binary, path, log)
    stop(proc)
    before, size0 = sqlite_sizes(path), os.path.getsize(path)
    proc, port = serve(args.binary, path, log)
    started = time.monotonic()
    seed(args.binary, port, args.lists, args.calls)
    print(f"sqlite: seeded in {time.monotonic() - started:.1f} s")
    stop(proc)
    after = sqlite_sizes(path)
    report("sqlite", before, after, args.lists, args.calls, os.path.getsize(path) - size0)

    # PostgreSQL: the same seed, then single writes with the WAL they make.
    proc, port = serve(args.binary, args.postgres, log)
    try:
        before = pg_sizes(args.postgres)
        db0 = int(psql(args.postgres, "SELECT pg_database_size(current_database())"))
        started = time.monotonic()
        seed(args.binary, port, args.lists, args.calls)
        print(f"postgresql: seeded in {time.monotonic() - started:.1f} s")
        psql(args.postgres, "VACUUM ANALYZE")
        after = pg_sizes(args.postgres)
        db1 = int(psql(args.postgres, "SELECT pg_database_size(current_database())"))
        report("postgresql", before, after, args.lists, args.calls, db1 - db0)

        psql(args.postgres, "CHECKPOINT")
        lsn = [psql(args.postgres, "SELECT pg_current_wal_lsn()")]
        started = time.monotonic()
        post_single(port, args.lists, args.writes, "a")
        first = time.monotonic() - started
        lsn.append(psql(args.postgres, "SELECT pg_current_wal_lsn()"))
        pids = pg_pids(args.postgres)
        cpu0 = (cpu_seconds([proc.pid]), cpu_seconds(pids))
        started = time.monotonic()
        post_single(port, args.lists, args.writes, "b")
        second = time.monotonic() - started
        cpu1 = (cpu_seconds([proc.pid]), cpu_seconds(pids))
        lsn.append(psql(args.postgres, "SELECT pg_current_wal_lsn()"))
        wal = [int(psql(args.postgres, f"SELECT pg_wal_lsn_diff('{b}', '{a}')")) for a, b in zip(lsn, lsn[1:])]
        grown = pg_sizes(args.postgres)
        print(f"postgresql: {args.writes} single-call writes over {args.lists} lists, 16 threads "
              f"({args.writes / first:.0f} writes/s on this host)")
        print(f"  WAL per write, first after a CHECKPOINT (full-page images): {wal[0] / args.writes:.0f} B")
        print(f"  WAL per write, pages already logged since the checkpoint:   {wal[1] / args.writes:.0f} B")
        print(f"  second round: {args.writes / second:.0f} writes/s; CPU per write: Recents "
              f"{(cpu1[0] - cpu0[0]) / args.writes * 1e6:.0f} us, PostgreSQL (every process of the cluster) "
              f"{(cpu1[1] - cpu0[1]) / args.writes * 1e6:.0f} us")
        print(f"  calls grew per single write: {per(after, grown, 'calls', 2 * args.writes):.0f} B")
        print(f"  idempotency_keys grew per single write (each had a key): "
              f"{per(after, grown, 'idempotency_keys', 2 * args.writes):.0f} B")
        print(f"  list_versions grew per single write: {per(after, grown, 'list_versions', 2 * args.writes):.0f} B")
        metrics = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
        for line in metrics.splitlines():
            if line.startswith(("recents_write_batches_total", "recents_writes_total")):
                print(f"  {line}")
    finally:
        stop(proc)
        log.close()


if __name__ == "__main__":
    main()
