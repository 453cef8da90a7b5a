/// A JWS public-key signature algorithm this tree verifies, named by its JOSE `alg` value
/// (RFC 7518 §3.1, RFC 8037 §3.1).
public enum SignatureAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3).
    case rs256 = "RS256"
    /// RSASSA-PSS with SHA-256, MGF1 with SHA-256 and a 32-byte salt (RFC 7518 §3.5).
    case ps256 = "PS256"
    /// ECDSA on P-256 with SHA-256, the signature as 64 bytes r || s (RFC 7518 §3.4).
    case es256 = "ES256"
    /// Ed25519 (RFC 8037 §3.1); JOSE names the curve in the key, not in `alg`.
    case edDSA = "EdDSA"
}
