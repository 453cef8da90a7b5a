"""The processes scripts/check-postgres-ha.py tests: the pg_auto_failover pair of
scripts/postgres-ha.sh (`Pair`) and the `recents serve` instances on it (`Instance`); stdlib only.
"""

import http.client
import os
import random
import signal
import socket
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HA_SCRIPT = os.path.join(ROOT, "scripts", "postgres-ha.sh")
HEARTBEAT = 2  # seconds between the instances' keep-alive comments, so a stuck stream shows soon


def free_port():
    """A free port below the ephemeral range, which outgoing connections may take at any moment."""
    while True:
        port = random.randrange(20000, 32000)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue


def get(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


class Pair:
    """scripts/postgres-ha.sh on one directory."""

    def __init__(self, directory):
        self.dir = directory

    def run(self, command, timeout=600, env=None):
        done = subprocess.run(["bash", HA_SCRIPT, command, self.dir], capture_output=True, text=True,
                              timeout=timeout, env=None if env is None else {**os.environ, **env})
        if done.returncode != 0:
            raise RuntimeError(f"postgres-ha.sh {command} failed: {done.stderr.strip()}")
        return done.stdout

    def events(self, command, env=None):
        """Runs failover or switchover; its event lines as {event: {field: value}}."""
        events = {}
        for line in self.run(command, env=env).splitlines():
            fields = dict(part.split("=", 1) for part in line.split())
            events[fields.pop("event")] = fields
        return events


class Instance:
    """One `recents serve` on the pair, its stderr in NAME.log."""

    def __init__(self, binary, uri, root, name, log_level="warn"):
        self.name, self.port = name, free_port()
        self.log = os.path.join(root, f"{name}.log")
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [binary, "serve", "--db", uri, "--host", "127.0.0.1", "--port", str(self.port), "--auth", "none",
                 "--sse-max-age", "3600", "--sse-heartbeat", str(HEARTBEAT), "--log-level", log_level],
                stdout=log, stderr=log)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if get(self.port, "/healthz")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"instance {name} did not become healthy (log: {self.log})")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
