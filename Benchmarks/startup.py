#!/usr/bin/env python3
"""Time from exec to the first 200 answer, for Benchmarks/run (issue 7, figure 6).

Starts a server command R times; each time it measures from just before the fork/exec until a
GET of --path answers 200, polling every 1 ms (a refused connection means "not listening yet"),
then stops the server with SIGTERM and waits for it, by PID. The literal `{run}` in any argument
is replaced with the run's number, so each Recents start can get a new, empty database
(migrations included in the figure). Standard library only; prints one JSON object.
"""

import argparse
import http.client
import json
import signal
import statistics
import subprocess
import sys
import time


def ready(port: int, path: str) -> bool:
    """True when the server answers 200 now; False while it is not listening yet."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        conn.request("GET", path)
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


def one_start(command: list, port: int, path: str, timeout: float) -> float:
    """Milliseconds from exec to the first 200; the server is stopped before returning."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not ready(port, path):
            if proc.poll() is not None:
                raise RuntimeError(f"{command[0]} exited with {proc.returncode} before answering")
            if time.perf_counter() - t0 > timeout:
                raise RuntimeError(f"{command[0]} did not answer within {timeout} s")
            time.sleep(0.001)
        return (time.perf_counter() - t0) * 1000
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main(argv) -> int:
    """Parses flags, runs the starts, prints JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--path", default="/healthz")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- server command with {run}")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    times = []
    for run in range(args.runs):
        times.append(one_start([a.replace("{run}", str(run)) for a in command], args.port, args.path, args.timeout))
    print(json.dumps({"runs": len(times), "median_ms": round(statistics.median(times), 2),
                      "min_ms": round(min(times), 2), "max_ms": round(max(times), 2)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
