#!/usr/bin/env python3
"""An identity provider for Benchmarks/run's auth rows: a P-256 key made by `openssl`, its public
key as DIR/jwks.json, and an ES256 token for LIST printed on stdout. The benchmark's Python has
no PyJWT, so the token is put together here: `openssl dgst -sign` makes the ECDSA signature and
this script only re-encodes it from DER to JOSE's r || s (RFC 7518 §3.4), no cryptography of its own.

usage: es256_token.py DIR --list LIST --issuer ISS --audience AUD [--ttl SECONDS]
"""
import argparse
import base64
import json
import os
import subprocess
import time


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def openssl(*args, data=None):
    return subprocess.run(["openssl", *args], input=data, capture_output=True, check=True).stdout


def der_integer(der, index):
    """(the INTEGER at `index` as 32 big-endian bytes, the index after it)."""
    assert der[index] == 0x02, "an ECDSA signature is two INTEGERs"
    length = der[index + 1]
    value = der[index + 2:index + 2 + length].lstrip(b"\0")
    return value.rjust(32, b"\0"), index + 2 + length


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--list", required=True)
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--audience", required=True)
    parser.add_argument("--ttl", type=int, default=86400)
    args = parser.parse_args()
    key = os.path.join(args.dir, "key.pem")
    openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key)
    # SubjectPublicKeyInfo of a P-256 key ends with the point 04 || x || y (SEC 1 §2.3.3).
    point = openssl("pkey", "-in", key, "-pubout", "-outform", "DER")[-65:]
    assert point[0] == 0x04, "an uncompressed P-256 point"
    jwk = {"kty": "EC", "crv": "P-256", "x": b64url(point[1:33]), "y": b64url(point[33:]), "kid": "bench-es256",
           "alg": "ES256", "use": "sig"}
    with open(os.path.join(args.dir, "jwks.json"), "w") as handle:
        json.dump({"keys": [jwk]}, handle)
    now = int(time.time())
    header = b64url(json.dumps({"alg": "ES256", "typ": "JWT", "kid": "bench-es256"}).encode())
    claims = {"sub": args.list, "iss": args.issuer, "aud": args.audience, "iat": now, "exp": now + args.ttl}
    signing_input = header + "." + b64url(json.dumps(claims).encode())
    der = openssl("dgst", "-sha256", "-sign", key, data=signing_input.encode())
    # SEQUENCE { INTEGER r, INTEGER s }, at most 72 bytes: a one-octet length.
    assert der[0] == 0x30 and der[1] < 0x80, "a short DER SEQUENCE"
    r, after = der_integer(der, 2)
    s, _ = der_integer(der, after)
    print(signing_input + "." + b64url(r + s))


if __name__ == "__main__":
    main()
