"""What the PyJWT fixture generators share (RecentsAuthTests/Fixtures/make-jwks-tokens.py and
RecentsCryptoTests/Fixtures/make-jwt-fixtures.py): base64url, a key's public JWK as PyJWT writes
it, and writing the fixture file with the versions that made it, so both files say the same
things the same way.

The generators find this module by path (they run as scripts, not as a package):

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Fixtures"))
"""

import base64
import json
from importlib.metadata import version

from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, OKPAlgorithm, RSAAlgorithm


def b64url(data):
    """`data` in base64url without padding (RFC 7515 §2)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text):
    """The bytes of unpadded base64url `text`."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_jwk(key, kid, alg):
    """The public JWK of `key` as PyJWT writes it, with kid, alg and use added."""
    public = key.public_key()
    if isinstance(public, rsa.RSAPublicKey):
        jwk = RSAAlgorithm.to_jwk(public, as_dict=True)
    elif isinstance(public, ec.EllipticCurvePublicKey):
        jwk = ECAlgorithm.to_jwk(public, as_dict=True)
    else:
        jwk = OKPAlgorithm.to_jwk(public, as_dict=True)
    jwk.update({"kid": kid, "alg": alg, "use": "sig"})
    return jwk


def write_fixtures(path, script, fixtures, summary):
    """Writes `fixtures` to `path` as indented JSON, led by a "generator" member naming `script`
    and the PyJWT and cryptography versions, and says what it wrote."""
    generator = f"{script} with PyJWT {version('pyjwt')}, cryptography {version('cryptography')}"
    with open(path, "w", encoding="utf-8") as file:
        json.dump(dict({"generator": generator}, **fixtures), file, indent=1)
        file.write("\n")
    print(f"wrote {path}: {summary}")
