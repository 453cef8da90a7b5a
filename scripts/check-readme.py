#!/usr/bin/env python3
"""Runs every example of README.md's Walkthrough against a live server and checks the answers.

Each ```sh block is run with bash (localhost:8080 pointed at a fresh server on a free port,
`recents` pointed at the binary under test); the ```json or ```text block that follows it is
the expected output. In expected JSON, "…" matches anything, objects need only the members
shown, and a list ending in "…" matches any longer list with that prefix.

usage: scripts/check-readme.py [--url http://HOST:PORT] [path/to/recents]   (default .build/debug/recents)

With --url the examples run against that server instead of a fresh one (scripts/check-two-instances.sh
points it at nginx in front of two instances on PostgreSQL); the examples that start a server of
their own or copy a SQLite file (`recents serve`, `recents backup`) are skipped. The lists the
walkthrough writes must then be new on that server.
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def blocks(readme):
    section = readme.split("## Walkthrough", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```(\w+)\n(.*?)```", section, re.S)


def json_values(text):
    decoder, values, index = json.JSONDecoder(), [], 0
    while True:
        while index < len(text) and text[index].isspace():
            index += 1
        if index >= len(text):
            return values
        value, index = decoder.raw_decode(text, index)
        values.append(value)


def matches(expected, actual, path="$"):
    if expected == "…":
        return []
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        problems = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{path}.{key}: missing")
            else:
                problems += matches(value, actual[key], f"{path}.{key}")
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{path}: expected a list, got {actual!r}"]
        if expected and expected[-1] == "…":
            expected = expected[:-1]
            actual = actual[: len(expected)]
        if len(expected) != len(actual):
            return [f"{path}: expected {len(expected)} elements, got {len(actual)}"]
        problems = []
        for index, (e, a) in enumerate(zip(expected, actual)):
            problems += matches(e, a, f"{path}[{index}]")
        return problems
    if expected != actual or type(expected) is bool and type(actual) is not bool:
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return []


def main():
    args = sys.argv[1:]
    url = None
    if args[:1] == ["--url"] and len(args) > 1:
        url, args = args[1].rstrip("/"), args[2:]
    binary = os.path.abspath(args[0] if args else os.path.join(ROOT, ".build/debug/recents"))
    workdir = tempfile.mkdtemp(prefix="recents-readme-")
    if url:
        address = url.split("://", 1)[-1]
        port = int(address.rsplit(":", 1)[1])
        server = None
    else:
        port = free_port()
        address = f"127.0.0.1:{port}"
        server = subprocess.Popen(
            # The walkthrough's backup example names the database as a reader's default is named.
            [binary, "serve", "--port", str(port), "--db", os.path.join(workdir, "recents.sqlite"), "--log-level", "warn"],
            cwd=workdir,
        )
    failures = 0
    try:
        deadline = time.time() + 20
        while True:
            try:
                urllib.request.urlopen(f"http://{address}/healthz", timeout=1).read()
                break
            except OSError:
                if time.time() > deadline or (server and server.poll() is not None):
                    sys.exit("check-readme: the server did not start")
                time.sleep(0.05)
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
            found = blocks(handle.read())
        env = dict(os.environ, RECENTS_PORT=str(port))
        checked = 0
        for number, (kind, body) in enumerate(found):
            if kind != "sh":
                continue
            if url and re.search(r"(?m)^recents (serve|backup) ", body):
                print(f"skip {body.strip().splitlines()[0][:90]} (a server or SQLite file of its own)")
                continue
            script = body.replace("localhost:8080", address)
            script = re.sub(r"(?m)^recents ", binary + " ", script)
            run = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60, env=env, cwd=workdir)
            title = body.strip().splitlines()[0][:90]
            if run.returncode != 0:
                print(f"FAIL {title}\n  exit {run.returncode}: {run.stderr.strip()}")
                failures += 1
                continue
            expected_kind, expected = found[number + 1] if number + 1 < len(found) else ("", "")
            if expected_kind == "json":
                try:
                    actual_values = json_values(run.stdout)
                except ValueError as error:
                    print(f"FAIL {title}\n  output is not JSON ({error}): {run.stdout[:300]}")
                    failures += 1
                    continue
                problems = matches(json_values(expected), actual_values)
            elif expected_kind == "text":
                want = [line.strip() for line in expected.strip().splitlines()]
                got = [line.strip() for line in run.stdout.strip().splitlines()]
                problems = [] if want == got else [f"expected {want!r}, got {got!r}"]
            else:
                problems = []
            checked += 1
            if problems:
                failures += 1
                print(f"FAIL {title}")
                for problem in problems[:10]:
                    print(f"  {problem}")
                print(f"  output: {run.stdout[:600]}")
            else:
                print(f"ok   {title}")
        print(f"{checked - failures} passed, {failures} failed")
    finally:
        if server:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
