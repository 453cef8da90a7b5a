#!/usr/bin/env python3
"""Writes jwks-tokens.json beside this script: two JSON Web Key Sets (the initial one and the one
after a rotation) and bearer tokens minted by PyJWT with `cryptography`, each with the verdict
Recents must reach under each set, so the JWKS verifier's rules (issue 25, item 2) are checked
against tokens nobody on this project wrote.

    python3 -m venv .venv && .venv/bin/pip install pyjwt cryptography
    .venv/bin/python Tests/RecentsAuthTests/Fixtures/make-jwks-tokens.py

Keys are new on every run, so the output differs each time; the committed JSON is one run's. The
private keys are not written anywhere. A verdict is "accept" or the name of the refusal
(`unknownKey`, `badSignature`, `missingClaim:iss`, ...); the Swift tests name `TokenError` cases
the same way. "Table" tokens are verified at `now`; "live" tokens expire in 2100, for tests whose
server reads the real clock.
"""

import hashlib
import hmac
import json
import os
import sys

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Fixtures"))
from pyjwt_fixtures import b64url, public_jwk, unb64url, write_fixtures  # noqa: E402

NOW = 1796083200  # 2026-12-01T00:00:00Z, AuthFixtures.now
LIVE_EXP = 4102444800  # 2100-01-01
ISSUER = "https://issuer.example"
AUDIENCE = "recents"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jwks-tokens.json")


def claims(**changes):
    """The claims of a good token for alice, with `changes` applied (None removes a claim)."""
    base = {"sub": "alice", "iss": ISSUER, "aud": AUDIENCE, "iat": NOW, "exp": NOW + 3600}
    base.update(changes)
    return {name: value for name, value in base.items() if value is not None}


def hand_signed(header, payload, secret):
    """HS256 over exactly these header and payload objects with `secret` as the HMAC key, the way
    an attacker builds the algorithm-confusion token PyJWT itself refuses to make."""
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(payload).encode())
    signature = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
    return signing_input + "." + b64url(signature)


def main():
    keys = {
        "rs256": (rsa.generate_private_key(public_exponent=65537, key_size=2048), "RS256"),
        "ps256": (rsa.generate_private_key(public_exponent=65537, key_size=2048), "PS256"),
        "es256": (ec.generate_private_key(ec.SECP256R1()), "ES256"),
        "eddsa": (ed25519.Ed25519PrivateKey.generate(), "EdDSA"),
    }
    # The rotation: es256 is withdrawn and es256-next published in its place.
    rotated_in = {"es256-next": (ec.generate_private_key(ec.SECP256R1()), "ES256")}
    impostor = ec.generate_private_key(ec.SECP256R1())  # claims kid es256, but is not that key

    initial = {"keys": [public_jwk(key, kid, alg) for kid, (key, alg) in keys.items()]}
    rotated = {"keys": [public_jwk(key, kid, alg) for kid, (key, alg) in keys.items() if kid != "es256"]
               + [public_jwk(key, kid, alg) for kid, (key, alg) in rotated_in.items()]}

    everything = dict(keys, **rotated_in)

    def sign(kid, payload=None, alg=None, headers=None, key=None):
        private, key_alg = everything[kid]
        return jwt.encode(payload if payload is not None else claims(), key or private, algorithm=alg or key_alg,
                          headers=dict({"kid": kid}, **(headers or {})))

    tokens = []

    def add(name, token, initial_verdict, rotated_verdict=None, list_name="alice", scope="read write"):
        tokens.append({"name": name, "token": token, "initial": initial_verdict,
                       "rotated": rotated_verdict or initial_verdict, "list": list_name, "scope": scope})

    for kid in keys:
        add(f"{keys[kid][1]} token", sign(kid), "accept", "unknownKey" if kid == "es256" else "accept")
    add("ES256 token of the key rotated in", sign("es256-next"), "unknownKey", "accept")

    # Audience and scope rules.
    add("aud an array holding the audience", sign("es256", claims(aud=["other", AUDIENCE])), "accept", "unknownKey")
    add("scope of other services' words only", sign("rs256", claims(scope="openid profile email")), "accept")
    add("scope naming read among others", sign("rs256", claims(scope="openid read")), "accept", scope="read")
    add("scope admin", sign("rs256", claims(sub="ops", scope="admin")), "accept", list_name="ops", scope="admin")
    add("nbf inside the skew", sign("eddsa", claims(nbf=NOW + 30)), "accept")
    add("exp inside the skew", sign("eddsa", claims(exp=NOW - 30)), "accept")
    add("typ absent, extra header members", sign("ps256", headers={"typ": None, "x5t": "ignored"}), "accept")

    # The refusal table of issue 25.
    add("unknown kid", sign("rs256", headers={"kid": "retired-2019"}), "unknownKey")
    add("no kid", jwt.encode(claims(), keys["rs256"][0], algorithm="RS256"), "unknownKey")
    add("kid of a PS256 key, token RS256", sign("ps256", alg="RS256"), "algorithmMismatch")
    add("kid of an RS256 key, token ES256", sign("rs256", alg="ES256", key=keys["es256"][0]), "algorithmMismatch")
    pem = keys["rs256"][0].public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    add("HS256 signed with the RS256 key's public PEM",
        hand_signed({"alg": "HS256", "typ": "JWT", "kid": "rs256"}, claims(), pem), "unsupportedAlgorithm")
    header = b64url(json.dumps({"alg": "none", "typ": "JWT", "kid": "rs256"}).encode())
    payload = b64url(json.dumps(claims()).encode())
    add("alg none, no signature", f"{header}.{payload}.", "malformed")
    add("alg none, a signature anyway", f"{header}.{payload}.{b64url(b'x' * 32)}", "unsupportedAlgorithm")
    add("RS384 with an RS256 key", sign("rs256", alg="RS384"), "unsupportedAlgorithm")
    add("a key not in the set, claiming kid es256", sign("es256", key=impostor), "badSignature", "unknownKey")
    add("wrong iss", sign("rs256", claims(iss="https://evil.example")), "wrongIssuer")
    add("iss with a trailing slash", sign("rs256", claims(iss=ISSUER + "/")), "wrongIssuer")
    add("no iss", sign("rs256", claims(iss=None)), "missingClaim:iss")
    add("wrong aud", sign("rs256", claims(aud="another-api")), "wrongAudience")
    add("aud an array without the audience", sign("rs256", claims(aud=["a", "b"])), "wrongAudience")
    add("aud an empty array", sign("rs256", claims(aud=[])), "wrongAudience")
    add("aud a number", sign("rs256", claims(aud=7)), "invalidClaim:aud")
    add("no aud", sign("rs256", claims(aud=None)), "missingClaim:aud")
    add("expired", sign("eddsa", claims(exp=NOW - 120)), "expired")
    add("not yet valid", sign("eddsa", claims(nbf=NOW + 120)), "notYetValid")
    add("no exp", sign("eddsa", claims(exp=None)), "missingClaim:exp")
    add("sub not a list name", sign("ps256", claims(sub="auth0|5f7c8ec7c33c6c004bbafe82")), "invalidClaim:sub")
    add("no sub", sign("ps256", claims(sub=None)), "missingClaim:sub")
    add("scope breaking the grammar", sign("rs256", claims(scope="read  write")), "invalidClaim:scope")
    add("crit header", sign("rs256", headers={"crit": ["exp"]}), "criticalHeader")
    good = sign("rs256")
    head, _, signature = good.rpartition(".")
    forged = b64url(json.dumps(claims(sub="mallory")).encode())
    add("tampered payload", head.split(".")[0] + "." + forged + "." + signature, "badSignature")
    changed = bytearray(unb64url(signature))
    changed[10] ^= 0x01
    add("tampered signature", head + "." + b64url(bytes(changed)), "badSignature")

    live = {
        "alice-rs256": sign("rs256", claims(exp=LIVE_EXP)),
        "alice-ps256": sign("ps256", claims(exp=LIVE_EXP)),
        "alice-es256": sign("es256", claims(exp=LIVE_EXP)),
        "alice-eddsa": sign("eddsa", claims(exp=LIVE_EXP)),
        "alice-es256-next": sign("es256-next", claims(exp=LIVE_EXP)),
        "alice-read": sign("es256", claims(exp=LIVE_EXP, scope="read")),
        "bob-es256": sign("es256", claims(sub="bob", exp=LIVE_EXP)),
        "ops-admin": sign("eddsa", claims(sub="ops", scope="admin", exp=LIVE_EXP)),
        "bad-sub": sign("es256", claims(sub="alice@example.com", exp=LIVE_EXP)),
    }

    fixtures = {
        "now": NOW,
        "issuer": ISSUER,
        "audience": AUDIENCE,
        "initial": initial,
        "rotated": rotated,
        "tokens": tokens,
        "live": live,
    }
    write_fixtures(OUT, "make-jwks-tokens.py", fixtures, f"{len(tokens)} table tokens, {len(live)} live tokens")


if __name__ == "__main__":
    main()
