#!/usr/bin/env python3
"""Writes jwt-fixtures.json beside this script: public JWKs, JWS signing inputs with signatures
(valid and tampered) and keys that must be refused, all made by PyJWT and `cryptography`, so
RecentsCrypto's verification is checked against code nobody on this project wrote.

    python3 -m venv /tmp/jwksvenv && /tmp/jwksvenv/bin/pip install pyjwt cryptography
    /tmp/jwksvenv/bin/python Tests/RecentsCryptoTests/Fixtures/make-jwt-fixtures.py

Keys are new on every run, so the output differs each time; the committed JSON is one run's.
Every signature is the signature segment of a token PyJWT minted, or one that `cryptography`
made directly where PyJWT cannot (a DER ECDSA signature, a PSS salt of another length).
"""

import os
import sys

import jwt
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, padding, rsa
from jwt.algorithms import ECAlgorithm, OKPAlgorithm, RSAAlgorithm

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Fixtures"))
from pyjwt_fixtures import b64url, public_jwk, unb64url, write_fixtures  # noqa: E402

CLAIMS = {"sub": "alice", "iss": "https://issuer.example", "aud": "recents", "exp": 1764464400}
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jwt-fixtures.json")


def private_jwk(key, algorithm, kid, alg):
    jwk = algorithm.to_jwk(key, as_dict=True)
    jwk.update({"kid": kid, "alg": alg})
    return jwk


def split(token):
    """(signing input, signature bytes) of a compact JWS."""
    head, _, signature = token.rpartition(".")
    return head, unb64url(signature)


def entry(name, key, alg, message, signature, valid):
    return {"name": name, "key": key, "alg": alg, "message": message, "signature": b64url(signature), "valid": valid}


def flip(signature, index):
    changed = bytearray(signature)
    changed[index] ^= 0x01
    return bytes(changed)


def main():
    keys = {
        "rs256": rsa.generate_private_key(public_exponent=65537, key_size=2048),
        "ps256": rsa.generate_private_key(public_exponent=65537, key_size=3072),
        "es256": ec.generate_private_key(ec.SECP256R1()),
        "eddsa": ed25519.Ed25519PrivateKey.generate(),
    }
    others = {
        "rs256": rsa.generate_private_key(public_exponent=65537, key_size=2048),
        "ps256": rsa.generate_private_key(public_exponent=65537, key_size=3072),
        "es256": ec.generate_private_key(ec.SECP256R1()),
        "eddsa": ed25519.Ed25519PrivateKey.generate(),
    }
    algs = {"rs256": "RS256", "ps256": "PS256", "es256": "ES256", "eddsa": "EdDSA"}
    signatures = []
    for name, key in keys.items():
        alg = algs[name]
        token = jwt.encode(CLAIMS, key, algorithm=alg, headers={"kid": name})
        message, signature = split(token)
        signatures.append(entry(f"{alg} token", name, alg, message, signature, True))
        tampered = jwt.encode(dict(CLAIMS, sub="mallory"), key, algorithm=alg, headers={"kid": name})
        signatures.append(entry(f"{alg} tampered payload", name, alg, tampered.rpartition(".")[0], signature, False))
        signatures.append(entry(f"{alg} tampered signature", name, alg, message, flip(signature, len(signature) // 2), False))
        signatures.append(entry(f"{alg} last signature byte changed", name, alg, message, flip(signature, -1), False))
        other = jwt.encode(CLAIMS, others[name], algorithm=alg, headers={"kid": name})
        other_message, other_signature = split(other)
        signatures.append(entry(f"{alg} signed by another key", name, alg, other_message, other_signature, False))
        # The same algorithm over an empty message, straight from PyJWT's algorithm object.
        algorithm = jwt.get_algorithm_by_name(alg)
        signatures.append(entry(f"{alg} empty message", name, alg, "", algorithm.sign(b"", key), True))

    # ES256 signed the way X.509 does it (DER), not JOSE's r || s: the wrong format.
    message, _ = split(jwt.encode(CLAIMS, keys["es256"], algorithm="ES256", headers={"kid": "es256"}))
    der = keys["es256"].sign(message.encode(), ec.ECDSA(hashes.SHA256()))
    signatures.append(entry("ES256 DER-encoded signature", "es256", "ES256", message, der, False))

    # PSS with the longest salt instead of RFC 7518 §3.5's 32 bytes: valid PSS, not PS256.
    message, _ = split(jwt.encode(CLAIMS, keys["ps256"], algorithm="PS256", headers={"kid": "ps256"}))
    long_salt = keys["ps256"].sign(
        message.encode(), padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.MAX_LENGTH),
        hashes.SHA256())
    signatures.append(entry("PS256 with the longest salt", "ps256", "PS256", message, long_salt, False))

    # An RSA signature is exactly k octets (RFC 8017 §8.1.2, §8.2.2): one whose first octet is zero,
    # sent without it, is refused (found by signing different payloads until one starts with 0x00).
    for alg, name in (("PS256", "ps256"), ("RS256", "rs256")):
        for counter in range(100000):
            token = jwt.encode(dict(CLAIMS, n=counter), keys[name], algorithm=alg, headers={"kid": name})
            message, signature = split(token)
            if signature[0] == 0:
                signatures.append(entry(f"{alg} signature starting with a zero octet", name, alg, message, signature, True))
                signatures.append(entry(f"{alg} signature without its leading zero octet", name, alg, message,
                                        signature[1:], False))
                break

    # An RS256 signature offered as PS256 and the reverse, on the same key.
    message, signature = split(jwt.encode(CLAIMS, keys["rs256"], algorithm="RS256", headers={"kid": "rs256"}))
    signatures.append(entry("RS256 signature checked as PS256", "rs256", "PS256", message, signature, False))
    message, signature = split(jwt.encode(CLAIMS, keys["rs256"], algorithm="PS256", headers={"kid": "rs256"}))
    signatures.append(entry("PS256 signature checked as RS256", "rs256", "RS256", message, signature, False))

    public = [{"name": name, "jwk": public_jwk(key, name, algs[name])} for name, key in keys.items()]

    small = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    off_curve = public_jwk(ec.generate_private_key(ec.SECP256R1()), "off-curve", "ES256")
    y = bytearray(unb64url(off_curve["y"]))
    y[-1] ^= 0x01  # the other y for this x is p - y, never y with its low bit flipped
    off_curve["y"] = b64url(bytes(y))
    secret = {"kty": "oct", "kid": "hs256", "alg": "HS256", "k": b64url(os.urandom(32))}
    refused = [
        {"name": "RSA key of 1024 bits", "member": "n", "jwk": public_jwk(small, "rsa-1024", "RS256")},
        {"name": "P-256 point off the curve", "member": "y", "jwk": off_curve},
        {"name": "RSA private key", "member": "d",
         "jwk": private_jwk(keys["rs256"], RSAAlgorithm(RSAAlgorithm.SHA256), "rs256-private", "RS256")},
        {"name": "EC private key", "member": "d",
         "jwk": private_jwk(keys["es256"], ECAlgorithm(ECAlgorithm.SHA256), "es256-private", "ES256")},
        {"name": "Ed25519 private key", "member": "d",
         "jwk": private_jwk(keys["eddsa"], OKPAlgorithm(), "eddsa-private", "EdDSA")},
        {"name": "symmetric key", "member": "k", "jwk": secret},
        {"name": "P-384 key", "member": "crv", "jwk": public_jwk(ec.generate_private_key(ec.SECP384R1()), "p384", "ES256")},
        {"name": "Ed448 key", "member": "crv", "jwk": public_jwk(ed448.Ed448PrivateKey.generate(), "ed448", "EdDSA")},
        {"name": "RSA key claiming ES256", "member": "alg", "jwk": public_jwk(keys["rs256"], "rsa-es256", "ES256")},
        {"name": "EC key claiming RS256", "member": "alg", "jwk": public_jwk(keys["es256"], "ec-rs256", "RS256")},
        {"name": "Ed25519 key claiming ES256", "member": "alg", "jwk": public_jwk(keys["eddsa"], "okp-es256", "ES256")},
        {"name": "RSA key for encryption", "member": "use",
         "jwk": dict(public_jwk(keys["rs256"], "rsa-enc", "RS256"), use="enc")},
    ]
    fixtures = {"keys": public, "signatures": signatures, "refusedKeys": refused}
    write_fixtures(OUT, "make-jwt-fixtures.py", fixtures,
                   f"{len(public)} keys, {len(signatures)} signatures, {len(refused)} refused keys")


if __name__ == "__main__":
    main()
