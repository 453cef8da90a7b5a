"""What scripts/check-jwks.py, check-hardening.py and check-proxy.py share (stdlib only): a result line
per check with the failures collected, base64url, and `recents serve` started on a free port with
its stderr in a log file, waited for until `GET /healthz` answers 200 (the run ends, naming the
log, if the process exits first or 30 s pass).
"""
import base64
import http.client
import signal
import socket
import subprocess
import sys
import time


FAILURES = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        FAILURES.append(what)
    return condition


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(command, port, log, env, cwd, what):
    """`command` (a `recents serve …` argument list) started and answering on `port`."""
    process = subprocess.Popen(command, stderr=log, env=env, cwd=cwd)
    deadline = time.time() + 30
    while time.time() < deadline:
        if process.poll() is not None:
            sys.exit(f"{what} exited at start (see {getattr(log, 'name', 'its log')})")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return process
        except OSError:
            time.sleep(0.05)
    sys.exit(f"{what} did not answer within 30 s")


def stop(process, seconds=20):
    """Stops a server started here: SIGTERM, and SIGKILL if it is still there after `seconds`."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
