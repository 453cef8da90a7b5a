#!/usr/bin/env python3
"""The one-fsync-per-write bound for Benchmarks/run (issue 7, figure 4).

A loop of single-row INSERT transactions in SQLite with the settings Recents uses
(journal_mode=WAL, synchronous=FULL), in a database file in the given directory, so on the same
disk as the server's database. Every COMMIT syncs the WAL once; the transactions per second are
what a server that fsyncs each acknowledged write could at best do. Recents batches concurrent
writes into one commit, so at concurrency 64 it should beat this bound. Standard library only.
"""

import argparse
import json
import os
import sqlite3
import sys
import time


def measure(path: str, seconds: float) -> dict:
    """Commits one-row transactions for `seconds` and returns the count and rate."""
    db = sqlite3.connect(path, isolation_level=None)
    if db.execute("PRAGMA journal_mode=WAL").fetchone()[0].lower() != "wal":
        raise RuntimeError("journal_mode=WAL was refused")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE IF NOT EXISTS calls (id TEXT PRIMARY KEY, list TEXT, body TEXT)")
    body = '{"peer":{"id":"bob"},"direction":"incoming","timestamp":1764460800}'
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO calls VALUES (?, ?, ?)", (f"c-{count}", "bound", body))
        db.execute("COMMIT")
        count += 1
    elapsed = time.perf_counter() - start
    db.close()
    return {"transactions": count, "seconds": round(elapsed, 3), "per_second": round(count / elapsed, 1)}


def main(argv) -> int:
    """Parses flags, measures in a fresh file, removes it, prints JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True, help="directory on the disk to measure")
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    path = os.path.join(args.dir, "fsync-bound.sqlite")
    try:
        result = measure(path, args.seconds)
    finally:
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
