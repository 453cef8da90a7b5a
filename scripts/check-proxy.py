#!/usr/bin/env python3
"""Issue 45 end to end: Recents behind a real nginx on loopback, configured as docs/DEPLOY.md says
(`X-Forwarded-For` appended, a client's `Forwarded` dropped), with `--rate-limit 1` (bursts of 2);
then behind HAProxy and Caddy with DEPLOY.md's lines for them, when they are installed.

Each client connects from an address of its own on 127.0.0.0/8 (Linux routes the whole block to
loopback), so nginx appends a different address for each. Checked:
- with `--trusted-proxies 127.0.0.1`: two clients behind nginx have a bucket each, a client's own
  `X-Forwarded-For` (or `Forwarded`) does not move it to another bucket, and the access log's
  `remote=` names each client; a client reaching Recents directly from an untrusted address is
  counted by that address whatever its headers say;
- without the flag: every client behind nginx shares nginx's bucket and the log names nginx.

usage: scripts/check-proxy.py [path/to/recents]   (default .build/debug/recents); needs nginx
(haproxy and caddy are optional here; .ci/run installs them).
"""
import http.client
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from checklib import FAILURES, check, free_port

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def wait_for(what, condition, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise RuntimeError(f"check-proxy: {what} did not happen within {seconds} s")


class Client:
    """One keep-alive connection from `source` (an address of 127.0.0.0/8) to `port`."""

    def __init__(self, source, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))

    def statuses(self, count, headers=None, path="/v1/lists/alice"):
        out = []
        for _ in range(count):
            self.connection.request("GET", path, headers=headers or {})
            response = self.connection.getresponse()
            response.read()
            out.append(response.status)
        return out


def answers(port):
    """Whether `/healthz` answers 200 (it is exempt from the rate limit, so probing takes nothing)."""
    try:
        return Client("127.0.0.1", port).statuses(1, path="/healthz")[0] == 200
    except OSError:
        return False


def start_nginx(conf_dir, listen, upstream):
    """nginx with DEPLOY.md's lines (and its upstream connections from 127.0.0.1); its stopper."""
    conf = subprocess.run(
        ["bash", os.path.join(ROOT, "scripts", "nginx-proxy-conf.sh"), conf_dir, str(listen), str(upstream)],
        check=True, capture_output=True, text=True).stdout
    conf = conf.replace(
        "proxy_pass http://recents;",
        "proxy_pass http://recents;\n            proxy_bind 127.0.0.1;\n"
        "            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n"
        "            proxy_set_header Forwarded \"\";")
    path = os.path.join(conf_dir, "nginx.conf")
    with open(path, "w") as f:
        f.write(conf)
    subprocess.run(["nginx", "-c", path, "-p", conf_dir], check=True)
    pid = os.path.join(conf_dir, "nginx.pid")
    return lambda: subprocess.run(["kill", open(pid).read().strip()], check=False) if os.path.exists(pid) else None


def start_haproxy(conf_dir, listen, upstream):
    """HAProxy with DEPLOY.md's two lines in its backend; its stopper."""
    path = os.path.join(conf_dir, "haproxy.cfg")
    with open(path, "w") as f:
        f.write(f"""defaults
    mode http
    timeout connect 5s
    timeout client 30s
    timeout server 30s
frontend web
    bind 127.0.0.1:{listen}
    default_backend recents
backend recents
    option forwardfor
    http-request del-header Forwarded
    server r1 127.0.0.1:{upstream} source 127.0.0.1
""")
    process = subprocess.Popen(["haproxy", "-f", path, "-db"], stderr=subprocess.DEVNULL)
    return lambda: (process.terminate(), process.wait(10))


def start_caddy(conf_dir, listen, upstream):
    """Caddy with DEPLOY.md's `header_up -Forwarded`; its stopper."""
    path = os.path.join(conf_dir, "Caddyfile")
    with open(path, "w") as f:
        f.write(f"""{{
    admin off
    auto_https off
    storage file_system {{
        root {conf_dir}
    }}
}}
:{listen} {{
    bind 127.0.0.1
    reverse_proxy 127.0.0.1:{upstream} {{
        header_up -Forwarded
    }}
}}
""")
    process = subprocess.Popen(
        ["caddy", "run", "--config", path, "--adapter", "caddyfile"], cwd=conf_dir,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, HOME=conf_dir, XDG_DATA_HOME=conf_dir))
    return lambda: (process.terminate(), process.wait(10))


PROXIES = {"nginx": start_nginx, "haproxy": start_haproxy, "caddy": start_caddy}


class Setup:
    """Recents (SQLite, `--rate-limit 1`, the given flags) and a proxy (`PROXIES`) in front of it."""

    def __init__(self, binary, workdir, name, proxy, *flags):
        self.port = free_port()
        self.proxy = free_port()
        self.log = os.path.join(workdir, f"{name}.log")
        with open(self.log, "w") as log:
            self.server = subprocess.Popen(
                [binary, "serve", "--port", str(self.port), "--db", os.path.join(workdir, f"{name}.sqlite"),
                 "--auth", "none", "--rate-limit", "1", "--log-level", "info", *flags],
                stderr=log, cwd=workdir)
        conf_dir = os.path.join(workdir, f"{proxy}-{name}")
        os.makedirs(conf_dir)
        self.stop_proxy = PROXIES[proxy](conf_dir, self.proxy, self.port)
        try:
            wait_for("recents answering", lambda: answers(self.port))
            wait_for(f"{proxy} answering", lambda: answers(self.proxy))
        except RuntimeError:
            self.stop()
            raise

    def remotes(self):
        with open(self.log) as f:
            return re.findall(r"msg=request .* remote=(\S+)", f.read())

    def stop(self):
        self.server.terminate()
        self.server.wait(10)
        self.stop_proxy()


def trusted(binary, workdir, proxy="nginx"):
    setup = Setup(binary, workdir, f"trusted-{proxy}", proxy, "--trusted-proxies", "127.0.0.1")
    try:
        a, b = Client("127.0.0.2", setup.proxy), Client("127.0.0.3", setup.proxy)
        check(a.statuses(3) == [200, 200, 429], f"{proxy}, trusted: client A behind the proxy is limited on its own bucket")
        check(b.statuses(1) == [200], f"{proxy}, trusted: client B behind the proxy still has its own bucket")
        check(a.statuses(1, {"X-Forwarded-For": "198.51.100.9"}) == [429],
              f"{proxy}, trusted: client A prepending an address in X-Forwarded-For stays in its bucket")
        check(a.statuses(1, {"Forwarded": "for=198.51.100.10"}) == [429],
              f"{proxy}, trusted: client A sending its own Forwarded stays in its bucket (the proxy drops the field)")
        direct = Client("127.0.0.4", setup.port)
        check(direct.statuses(3, {"X-Forwarded-For": "198.51.100.11"}) == [200, 200, 429],
              f"{proxy}, trusted: a client reaching Recents directly is counted by its own address")
        check(direct.statuses(1, {"X-Forwarded-For": "198.51.100.12"}) == [429],
              f"{proxy}, trusted: ... whatever address its X-Forwarded-For names")
        remotes = set(setup.remotes())
        check({"127.0.0.2", "127.0.0.3", "127.0.0.4"} <= remotes, f"{proxy}, trusted: the access log names each client ({sorted(remotes)})")
        check(not remotes & {"198.51.100.9", "198.51.100.10", "198.51.100.11", "198.51.100.12"},
              f"{proxy}, trusted: the access log never names an address a client claimed")
    finally:
        setup.stop()


def untrusted(binary, workdir):
    setup = Setup(binary, workdir, "untrusted", "nginx")
    try:
        a, b = Client("127.0.0.2", setup.proxy), Client("127.0.0.3", setup.proxy)
        check(a.statuses(2) == [200, 200], "untrusted: client A behind nginx gets its burst")
        check(b.statuses(1, {"X-Forwarded-For": "198.51.100.9"}) == [429],
              "untrusted: client B shares nginx's bucket, its own X-Forwarded-For changing nothing")
        remotes = set(setup.remotes())
        check(remotes == {"127.0.0.1"}, f"untrusted: the access log names nginx only ({sorted(remotes)})")
    finally:
        setup.stop()


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/recents")
    if not shutil.which("nginx"):
        print("check-proxy: nginx is not installed; skipped")
        return
    workdir = tempfile.mkdtemp(prefix="check-proxy-")
    try:
        trusted(binary, workdir)
        untrusted(binary, workdir)
        for proxy in ("haproxy", "caddy"):
            if shutil.which(proxy):
                trusted(binary, workdir, proxy)
            else:
                print(f"check-proxy: {proxy} is not installed; its lines are not checked")
    except RuntimeError as error:
        check(False, str(error))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if FAILURES:
        sys.exit(f"check-proxy: {len(FAILURES)} failed")
    print("check-proxy: all passed")


if __name__ == "__main__":
    main()
