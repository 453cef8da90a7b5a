#!/usr/bin/env python3
"""One well-behaved client's reads at a steady pace, for Benchmarks/run's rate-limit rows: GET
PATH with a bearer token on one keep-alive connection, RATE times a second for SECONDS, each
request's time from send to the whole answer. Prints one JSON object: p50_ms, p99_ms, max_ms,
count and non_200 (answers other than 200, which must stay 0: the pace is within the limit).

usage: ratelimit.py --port P --path PATH --token T [--rate 50] [--seconds 10]
"""
import argparse
import http.client
import json
import time

import netlib


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--path", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--rate", type=float, default=50)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=10)
    headers = {"Authorization": f"Bearer {args.token}"}
    times, non_200 = [], 0
    start = time.monotonic()
    next_send = start
    while time.monotonic() - start < args.seconds:
        now = time.monotonic()
        if now < next_send:
            time.sleep(next_send - now)
        next_send += 1 / args.rate
        sent = time.perf_counter()
        connection.request("GET", args.path, headers=headers)
        response = connection.getresponse()
        response.read()
        times.append((time.perf_counter() - sent) * 1000)
        if response.status != 200:
            non_200 += 1
    connection.close()
    print(json.dumps({
        "p50_ms": round(netlib.percentile(times, 0.5), 3), "p99_ms": round(netlib.percentile(times, 0.99), 3),
        "max_ms": round(max(times), 3), "count": len(times), "non_200": non_200,
    }))


if __name__ == "__main__":
    main()
