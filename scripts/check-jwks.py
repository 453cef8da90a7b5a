#!/usr/bin/env python3
"""Issue 25 end to end against a live server: tokens of an identity provider (RS256, PS256, ES256,
EdDSA) minted by PyJWT with keys `cryptography` makes here, the whole refusal table, HS256 beside
the key set, rotation by rewriting the file and by SIGHUP, a malformed file keeping the last good
set, per-client rate limits, and README.md's "Identity providers" examples.

usage: scripts/check-jwks.py [path/to/recents]   (default .build/debug/recents)

Needs PyJWT and cryptography (CI's .venv has them: .venv/bin/python scripts/check-jwks.py BINARY).
Every server it starts is stopped by its PID; its files live in one temporary directory.
"""
import hashlib
import hmac
import http.client
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

try:
    import jwt
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
except ImportError as missing:
    sys.exit(f"check-jwks: {missing}; run it with a Python that has pyjwt and cryptography (.venv/bin/python)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The public JWK of a key as the fixture generators write it: one definition for both.
sys.path.insert(0, os.path.join(ROOT, "Tests", "Fixtures"))
from pyjwt_fixtures import public_jwk  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from checklib import FAILURES, b64url, check  # noqa: E402  (shared with check-hardening.py)
import checklib  # noqa: E402
ISSUER = "https://idp.example"
AUDIENCE = "recents"
SECRET = "check-jwks-secret-0123456789abcdef0123"
class Server:
    """`recents serve` with the given flags, on a free port, logging to a file."""

    def __init__(self, binary, workdir, name, *flags):
        self.port = checklib.free_port()
        self.log = os.path.join(workdir, f"{name}.log")
        env = dict(os.environ, RECENTS_AUTH_SECRET=SECRET)
        with open(self.log, "w") as log:
            self.process = checklib.start(
                [binary, "serve", "--port", str(self.port), "--db", os.path.join(workdir, f"{name}.sqlite"),
                 "--log-level", "info", *flags], self.port, log, env, workdir, f"check-jwks: {name}")

    def request(self, path, token=None, connection=None):
        """(status, headers, JSON body or None) of GET `path`."""
        own = connection is None
        connection = connection or http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request("GET", path, headers={"Authorization": f"Bearer {token}"} if token else {})
            response = connection.getresponse()
            body = response.read()
            try:
                value = json.loads(body) if body else None
            except ValueError:
                value = None
            return response.status, {k.lower(): v for k, v in response.getheaders()}, value
        finally:
            if own:
                connection.close()

    def text(self):
        with open(self.log, encoding="utf-8", errors="replace") as handle:
            return handle.read()

    def stop(self):
        checklib.stop(self.process, seconds=15)


class Provider:
    """Keys of a made-up identity provider, its JWKS and the tokens it mints."""

    def __init__(self):
        self.keys = {
            "rs1": (rsa.generate_private_key(public_exponent=65537, key_size=2048), "RS256"),
            "ps1": (rsa.generate_private_key(public_exponent=65537, key_size=2048), "PS256"),
            "ec1": (ec.generate_private_key(ec.SECP256R1()), "ES256"),
            "ed1": (ed25519.Ed25519PrivateKey.generate(), "EdDSA"),
            "ec2": (ec.generate_private_key(ec.SECP256R1()), "ES256"),
        }

    def jwks(self, *kids):
        keys = []
        for kid in kids:
            private, alg = self.keys[kid]
            keys.append(public_jwk(private, kid, alg))
        return json.dumps({"keys": keys})

    def token(self, kid="ec1", key=None, alg=None, **claims):
        now = int(time.time())
        payload = {"sub": "alice", "iss": ISSUER, "aud": AUDIENCE, "iat": now, "exp": now + 600}
        payload.update(claims)
        payload = {name: value for name, value in payload.items() if value is not None}
        private, key_alg = self.keys[kid] if kid in self.keys else self.keys["rs1"]
        return jwt.encode(payload, key or private, algorithm=alg or key_alg, headers={"kid": kid})

    def pem(self, kid):
        return self.keys[kid][0].public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


def write(path, text):
    """Replaces `path` by a rename, as deploy tools and Kubernetes update files."""
    with open(path + ".next", "w") as handle:
        handle.write(text)
    os.replace(path + ".next", path)


def refusal_table(server, provider, binary):
    now = int(time.time())
    none_header = b64url(json.dumps({"alg": "none", "typ": "JWT", "kid": "rs1"}).encode())
    payload = b64url(json.dumps({"sub": "alice", "iss": ISSUER, "aud": AUDIENCE, "exp": now + 600}).encode())
    signing_input = b64url(json.dumps({"alg": "HS256", "typ": "JWT", "kid": "rs1"}).encode()) + "." + payload
    pem_trick = signing_input + "." + b64url(hmac.new(provider.pem("rs1"), signing_input.encode(), hashlib.sha256).digest())
    good = provider.token("rs1")
    head, _, signature = good.rpartition(".")
    forged = b64url(json.dumps({"sub": "mallory", "iss": ISSUER, "aud": AUDIENCE, "exp": now + 600}).encode())
    hs256 = subprocess.run([binary, "token", "--list", "carol"], capture_output=True, text=True,
                           env=dict(os.environ, RECENTS_AUTH_SECRET=SECRET), check=True).stdout.strip()
    table = [
        ("RS256 token", provider.token("rs1"), 200),
        ("PS256 token", provider.token("ps1"), 200),
        ("ES256 token", provider.token("ec1"), 200),
        ("EdDSA token", provider.token("ed1"), 200),
        ("aud an array holding the audience", provider.token("ec1", aud=["other", AUDIENCE]), 200),
        ("HS256 token of `recents token` beside the key set", hs256, 200),
        ("unknown kid", provider.token("retired", key=provider.keys["rs1"][0], alg="RS256"), 401),
        ("kid of a PS256 key, token RS256", provider.token("ps1", alg="RS256"), 401),
        ("HS256 signed with the RS256 key's public PEM", pem_trick, 401),
        ("alg none", f"{none_header}.{payload}.", 401),
        ("a key not in the set under a known kid", provider.token("ec1", key=ec.generate_private_key(ec.SECP256R1())), 401),
        ("wrong iss", provider.token("rs1", iss="https://evil.example"), 401),
        ("wrong aud", provider.token("rs1", aud="another-api"), 401),
        ("expired", provider.token("ed1", exp=now - 120), 401),
        ("not yet valid", provider.token("ed1", nbf=now + 120), 401),
        ("sub not a list name", provider.token("ps1", sub="auth0|5f7c8ec7c33c6c004bbafe82"), 401),
        ("tampered payload", head.split(".")[0] + "." + forged + "." + signature, 401),
    ]
    for name, token, expected in table:
        status, headers, body = server.request("/v1/me", token)
        detail = f"{status}" + (f" {body.get('detail')}" if isinstance(body, dict) and status != 200 else "")
        if not check(status == expected, f"{name}: GET /v1/me is {expected} ({detail})"):
            continue
        if expected == 401:
            check(headers.get("www-authenticate", "").endswith('error="invalid_token"'),
                  f"{name}: WWW-Authenticate names invalid_token")
    status, _, body = server.request("/v1/me", provider.token("ps1", sub="auth0|5f7c8ec7c33c6c004bbafe82"))
    check("sub claim is not a list name" in (body or {}).get("detail", ""), "a sub that is no list name says so")
    status, _, body = server.request("/v1/me", provider.token("ec1", scope="openid profile email"))
    check(body == {"list": "alice", "scope": ["read", "write"], "expiresAt": body and body.get("expiresAt")},
          f"/v1/me of a token with other services' scope words: read and write ({body})")
    check(server.request("/v1/lists/alice", provider.token("ed1"))[0] == 200, "a provider's token opens its list")
    check(server.request("/v1/lists/bob", provider.token("ed1"))[0] == 403, "and not another")
    check(server.request("/v1/me")[0] == 401, "GET /v1/me without a token is 401")


def wait_for(condition, seconds):
    """Seconds until `condition()` held, or None after `seconds`."""
    start = time.time()
    while time.time() - start < seconds:
        if condition():
            return time.time() - start
        time.sleep(0.05)
    return None


def rotation(server, provider, path):
    ec1, ec2 = provider.token("ec1"), provider.token("ec2")
    check(server.request("/v1/me", ec1)[0] == 200 and server.request("/v1/me", ec2)[0] == 401,
          "before the rotation: ec1's token is accepted (and cached), ec2's refused")
    write(path, provider.jwks("rs1", "ps1", "ed1", "ec2"))
    took = wait_for(lambda: server.request("/v1/me", ec1)[0] == 401, 10)
    check(took is not None, f"the file rewritten: ec1 (removed) refused within 10 s, cache or not ({took and round(took, 2)} s)")
    check(server.request("/v1/me", ec2)[0] == 200, "ec2 (added) accepted")

    # SIGHUP reads the file at once, well before the 2 s watcher would.
    write(path, provider.jwks("rs1", "ps1", "ed1", "ec1", "ec2"))
    server.process.send_signal(signal.SIGHUP)
    took = wait_for(lambda: server.request("/v1/me", ec1)[0] == 200, 1)
    check(took is not None, f"SIGHUP: ec1 accepted again within 1 s ({took and round(took, 2)} s)")
    check('msg="reading the key set file again" signal=SIGHUP' in server.text(), "SIGHUP is logged")

    lines = server.text().count("keeping the last good key set")
    with open(path, "w") as handle:
        handle.write('{"keys": [')
    took = wait_for(lambda: server.text().count("keeping the last good key set") > lines, 10)
    check(took is not None, f"a malformed file is logged at error level within 10 s ({took and round(took, 2)} s)")
    line = next(line for line in server.text().splitlines() if "keeping the last good key set" in line)
    check(" level=error " in line and "error=" in line, f"it is an error-level line saying why ({line[:160]})")
    check(server.request("/v1/me", ec1)[0] == 200 and server.request("/v1/me", ec2)[0] == 200,
          "the last good set stays in use")
    before = server.text().count("keeping the last good key set")
    time.sleep(2.5)  # the watcher looks again: the same broken file is not logged again
    check(server.text().count("keeping the last good key set") == before, "a broken file is logged once, not every check")
    server.process.send_signal(signal.SIGHUP)
    check(wait_for(lambda: server.text().count("keeping the last good key set") > before, 2) is not None,
          "SIGHUP reads the broken file again and says so again")
    write(path, provider.jwks("rs1", "ps1", "ed1", "ec2"))
    check(wait_for(lambda: server.request("/v1/me", ec1)[0] == 401, 10) is not None, "a good file is used again")


def rate_limits(server, provider, binary):
    # The file holds rs1, ps1, ed1 and ec2 since the rotation checks.
    alice, bob = provider.token("ec2"), provider.token("rs1", sub="bob")
    admin = provider.token("ed1", sub="ops", scope="admin")
    bob_statuses = []
    stop = threading.Event()

    def bob_at_4_per_second():
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        while not stop.is_set():
            bob_statuses.append(server.request("/v1/lists/bob", bob, connection)[0])
            time.sleep(0.25)
        connection.close()

    worker = threading.Thread(target=bob_at_4_per_second)
    worker.start()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    answers = [server.request("/v1/lists/alice/rows", alice, connection) for _ in range(300)]
    connection.close()
    time.sleep(1)
    stop.set()
    worker.join()
    statuses = [status for status, _, _ in answers]
    refused = [(headers, body) for status, headers, body in answers if status == 429]
    check(statuses[:10] == [200] * 10, f"alice's first 10 requests (the burst of 2 x 5) pass ({statuses[:12]})")
    check(len(refused) > 250, f"alice flooding: {len(refused)} of 300 refused")
    if refused:
        headers, body = refused[0]
        check(headers.get("retry-after") == "1" and body.get("type") == "rate-limited",
              f"429 rate-limited with Retry-After: 1 ({headers.get('retry-after')}, {body.get('type')})")
    check(bob_statuses and all(status == 200 for status in bob_statuses),
          f"bob at 4/s meanwhile: every request 200 ({bob_statuses})")
    check(all(server.request("/v1/lists/alice", admin)[0] == 200 for _ in range(30)), "an admin token is exempt")
    check(all(server.request("/healthz")[0] == 200 for _ in range(30)), "/healthz is exempt")
    anonymous = [server.request("/v1/openapi.json")[0] for _ in range(30)]
    check(429 in anonymous, "requests without a token are limited by address")


def readme_examples(binary, workdir):
    """Runs the ```sh blocks of README.md's "Identity providers" section with the venv's python3 on
    PATH, checking each against the ```json or ```text block after it (check-readme.py's rules)."""
    spec = importlib.util.spec_from_file_location("check_readme", os.path.join(ROOT, "scripts/check-readme.py"))
    readme = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(readme)
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
        section = handle.read().split("## Identity providers (JWKS)", 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"```(\w+)\n(.*?)```", section, re.S)
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    env.pop("RECENTS_AUTH_SECRET", None)
    directory = os.path.join(workdir, "readme")
    os.makedirs(directory)
    ports = {}
    for number, (kind, body) in enumerate(found):
        if kind != "sh":
            continue
        script = re.sub(r"localhost:(80\d\d)", lambda m: f"localhost:{ports.setdefault(m[1], checklib.free_port())}", body)
        script = re.sub(r"--port (80\d\d)", lambda m: f"--port {ports.setdefault(m[1], checklib.free_port())}", script)
        script = re.sub(r"(?m)^recents ", binary + " ", script)
        title = body.strip().splitlines()[0][:80]
        run = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60, env=env, cwd=directory)
        if not check(run.returncode == 0, f"README: {title}"):
            print(f"  exit {run.returncode}: {run.stderr.strip()[-600:]}")
            continue
        expected_kind, expected = found[number + 1] if number + 1 < len(found) else ("", "")
        if expected_kind == "json":
            problems = readme.matches(readme.json_values(expected), readme.json_values(run.stdout))
        elif expected_kind == "text":
            want = [line.strip() for line in expected.strip().splitlines()]
            got = [line.strip() for line in run.stdout.strip().splitlines()]
            problems = [] if want == got else [f"expected {want!r}, got {got!r}"]
        else:
            continue
        check(not problems, f"README: {title}: the answer shown" + (f" ({problems[:3]}; got {run.stdout[:300]})" if problems else ""))


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/recents"))
    if not os.access(binary, os.X_OK):
        sys.exit(f"check-jwks: no binary at {binary} (build first)")
    workdir = tempfile.mkdtemp(prefix="recents-jwks-")
    servers = []
    try:
        provider = Provider()
        path = os.path.join(workdir, "jwks.json")
        write(path, provider.jwks("rs1", "ps1", "ec1", "ed1"))
        flags = ("--auth-jwks", path, "--auth-issuer", ISSUER, "--auth-audience", AUDIENCE)
        server = Server(binary, workdir, "jwks", *flags)
        servers.append(server)
        refusal_table(server, provider, binary)
        rotation(server, provider, path)
        limited = Server(binary, workdir, "limited", *flags, "--rate-limit", "5")
        servers.append(limited)
        rate_limits(limited, provider, binary)
        for one in servers:
            one.stop()
        servers.clear()
        readme_examples(binary, workdir)
    finally:
        for one in servers:
            one.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"check-jwks: {len(FAILURES)} failed" if FAILURES else "check-jwks: all passed")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
