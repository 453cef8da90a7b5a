import RecentsCore
import RecentsCrypto

/// Mints HS256 tokens the verifier accepts: for `recents token`, tests and the README.
public struct JWTSigner: Sendable {
    private let secret: AuthSecret

    /// A signer with `secret`.
    public init(secret: AuthSecret) {
        self.secret = secret
    }

    /// A token for `list` with `scope`, issued at `now` and valid for `ttl` seconds.
    /// - Throws: `TokenSigningError` for a list name outside the alphabet, an empty scope or
    ///   a lifetime that is not positive or ends after `TokenClaims.latestNumericDate`.
    public func token(list: String, scope: TokenScope = .absentClaim, ttl: Int64, now: Int64) throws(TokenSigningError)
        -> String
    {
        guard ttl > 0 else { throw TokenSigningError(description: "the lifetime must be at least 1 second") }
        guard now >= 0, ttl <= TokenClaims.latestNumericDate - now else {
            throw TokenSigningError(description: "the token would expire after 9999-12-31")
        }
        return try sign(TokenClaims(subject: list, expiresAt: now + ttl, issuedAt: now, scope: scope))
    }

    /// The compact serialization of `claims`, with an explicit `scope` claim.
    /// - Throws: `TokenSigningError` when the claims could not be verified back.
    public func sign(_ claims: TokenClaims) throws(TokenSigningError) -> String {
        guard Identifier.isValidListName(claims.subject) else {
            throw TokenSigningError(description: "the list name \(Identifier.listNameRule)")
        }
        guard !claims.scope.isEmpty else { throw TokenSigningError(description: "the scope is empty") }
        let dates = [claims.expiresAt] + [claims.notBefore, claims.issuedAt].compactMap { $0 }
        guard dates.allSatisfy({ (0...TokenClaims.latestNumericDate).contains($0) }) else {
            throw TokenSigningError(description: "a date is outside 1970-01-01...9999-12-31")
        }
        // Every value is a list name, scope words or an integer, none of which JSON must escape.
        var payload = #"{"sub":"\#(claims.subject)","scope":"\#(claims.scope)""#
        if let issuedAt = claims.issuedAt { payload += #","iat":\#(issuedAt)"# }
        if let notBefore = claims.notBefore { payload += #","nbf":\#(notBefore)"# }
        payload += #","exp":\#(claims.expiresAt)}"#
        return signCompact(header: Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8), payload: Array(payload.utf8))
    }

    /// `header.payload.signature` over the given bytes as they are, valid or not: the way
    /// tests build tokens that are well signed but wrong in every other respect.
    public func signCompact(header: [UInt8], payload: [UInt8]) -> String {
        let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let signature = HMACSHA256.authenticationCode(key: secret.bytes, message: input.utf8)
        return input + "." + Base64URL.encode(signature)
    }
}

/// Why a token could not be minted.
public struct TokenSigningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the request for a token.
    public let description: String
}
