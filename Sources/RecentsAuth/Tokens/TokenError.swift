/// Why a bearer token was refused. Every case answers 401 `invalid_token`; the cases exist
/// for tests and server logs.
///
/// No description quotes any part of the token: a token must never reach a log line.
public enum TokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Longer than `JWTVerifier.maximumTokenBytes`; refused before any decoding.
    case tooLong
    /// Not three non-empty segments `header.payload.signature`.
    case malformed
    /// A segment that is not canonical unpadded base64url.
    case invalidEncoding(TokenSegment)
    /// A header or payload that is not a JSON object.
    case invalidJSON(TokenSegment)
    /// A header whose `alg` is missing or not one this server verifies: `HS256` with a secret,
    /// RS256, PS256, ES256 or EdDSA with a key set (never `none`).
    case unsupportedAlgorithm
    /// A header with `crit`: RFC 7515 §4.1.11 requires refusing extensions not understood.
    case criticalHeader
    /// The signature of `header.payload` does not verify (under the secret, or the key `kid` names).
    case badSignature
    /// A public-key token whose header has no `kid`, or one naming no key of the key set now.
    case unknownKey
    /// A header whose `alg` is not the `alg` of the key its `kid` names: no token chooses how its
    /// key is used (RFC 8725 §3.1).
    case algorithmMismatch
    /// `iss` is not the configured issuer.
    case wrongIssuer
    /// `aud` (a string or an array of them) does not contain the configured audience.
    case wrongAudience
    /// A required claim (`sub`, `exp`) is absent.
    case missingClaim(TokenClaim)
    /// A claim of the wrong type or out of range, or a `sub` that is not a list name.
    case invalidClaim(TokenClaim)
    /// `exp` lies more than the clock skew in the past.
    case expired
    /// `nbf` lies more than the clock skew in the future.
    case notYetValid
    /// Sent twice (two `Authorization` fields, or a field and `access_token`, RFC 6750 §2).
    case ambiguous

    public var description: String {
        switch self {
        case .tooLong: return "the token is longer than \(JWTVerifier.maximumTokenBytes) bytes"
        case .malformed: return "the token is not three dot-separated segments"
        case .invalidEncoding(let segment): return "the token's \(segment) is not unpadded base64url"
        case .invalidJSON(let segment): return "the token's \(segment) is not a JSON object"
        case .unsupportedAlgorithm: return "the token's alg is not one this server accepts"
        case .criticalHeader: return "the token's header has a crit member"
        case .badSignature: return "the token's signature does not verify"
        case .unknownKey: return "the token's kid names no key of the key set"
        case .algorithmMismatch: return "the token's alg is not the alg of the key its kid names"
        case .wrongIssuer: return "the token's iss is not the configured issuer"
        case .wrongAudience: return "the token's aud does not contain the configured audience"
        case .missingClaim(let claim): return "the token has no \(claim.rawValue) claim"
        case .invalidClaim(let claim): return "the token's \(claim.rawValue) claim is invalid"
        case .expired: return "the token has expired"
        case .notYetValid: return "the token is not valid yet"
        case .ambiguous: return "more than one token was sent"
        }
    }
}

/// The three parts of a JWS compact serialization.
public enum TokenSegment: String, Sendable, Hashable, CustomStringConvertible {
    case header, payload, signature

    public var description: String { rawValue }
}
