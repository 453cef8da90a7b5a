#!/usr/bin/env python3
"""Event-stream compression, issue 23: bytes per event and RSS per open encoder, one process per
setting (so each starts from a clean heap), printed as a Markdown table.

    swift build -c release --product compression-bench
    python3 Benchmarks/compression.py [--encoders 10000] [--events 30] [--quick]

Each setting opens N encoders (default 10,000; fewer if RSS grows past 4 GiB), codes one event on
each, reads VmRSS, then codes EVENTS-1 more on each and reads it again. Bytes per event come from
one stream of 1,000 events (first event, and the mean of events 101-1,000). Runs on one core.
"""
import argparse
import subprocess
import sys

GZIP = [  # (level, windowBits, memLevel)
    (6, 9, 1), (6, 9, 4), (6, 10, 2), (6, 11, 3), (6, 12, 1), (6, 12, 4), (6, 12, 5), (1, 12, 4),
    (6, 13, 5), (6, 14, 6), (6, 15, 1), (6, 15, 5), (6, 15, 8), (6, 15, 9),
]
BROTLI = [  # (quality, lgwin)
    (0, 12), (1, 10), (1, 12), (1, 14), (1, 16), (2, 12), (3, 12), (4, 12), (5, 12), (5, 14), (5, 16), (6, 16),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release/compression-bench")
    parser.add_argument("--encoders", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=30)
    parser.add_argument("--quick", action="store_true", help="a few settings only")
    args = parser.parse_args()
    runs = [["identity"]]
    gzip = GZIP[::4] if args.quick else GZIP
    brotli = BROTLI[::3] if args.quick else BROTLI
    runs += [["gzip", *map(str, s), str(args.encoders), str(args.events)] for s in gzip]
    runs += [["br", *map(str, s), str(args.encoders), str(args.events)] for s in brotli]
    print("| coding | setting | 1st event B | steady B/event | vs identity | CPU µs/event | encoders "
          "| RSS/encoder after 1 event | after %d events | at 10,000 streams |" % args.events)
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for run in runs:
        line = subprocess.run([args.bin, "stream", *run], check=True, capture_output=True, text=True).stdout
        coding, setting, first, first_id, steady, steady_id, micros, opened, rss1, rss_many, _ = line.strip().split("\t")
        ratio = float(steady) / float(steady_id)
        total = "-" if rss_many == "-" else "%.2f GiB" % (int(rss_many) * 10_000 / 2**30)
        kib = lambda v: "-" if v == "-" else "%.1f KiB" % (int(v) / 1024)
        print(f"| {coding} | {setting} | {first} (of {first_id}) | {steady} (of {steady_id}) | {ratio:.1%} "
              f"| {micros} | {opened} | {kib(rss1)} | {kib(rss_many)} | {total} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
