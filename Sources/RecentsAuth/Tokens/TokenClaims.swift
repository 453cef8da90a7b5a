import RecentsCore
import RecentsJSON

/// The claims of a verified token that this service acts on (RFC 7519 §4.1).
public struct TokenClaims: Sendable, Hashable {
    /// `sub`: the list the token owns; always a valid list name.
    public var subject: String
    /// `exp`, in whole Unix seconds (a fractional NumericDate is rounded down).
    public var expiresAt: Int64
    /// `nbf`, in whole Unix seconds (a fractional NumericDate is rounded up), when present.
    public var notBefore: Int64?
    /// `iat`, in whole Unix seconds, when present; informational only.
    public var issuedAt: Int64?
    /// `scope`, or `TokenScope.absentClaim` when the claim is absent or names none of read, write, admin.
    public var scope: TokenScope

    /// Claims with the given values.
    public init(
        subject: String, expiresAt: Int64, notBefore: Int64? = nil, issuedAt: Int64? = nil,
        scope: TokenScope = .absentClaim
    ) {
        self.subject = subject
        self.expiresAt = expiresAt
        self.notBefore = notBefore
        self.issuedAt = issuedAt
        self.scope = scope
    }

    /// The largest NumericDate accepted: 9999-12-31T23:59:59Z, so every value fits the
    /// arithmetic with the clock skew and a typo of a few extra digits is caught.
    public static let latestNumericDate: Int64 = 253_402_300_799
}

/// The registered claims this service reads, named as they appear in the payload.
public enum TokenClaim: String, Sendable, Hashable, CaseIterable {
    case subject = "sub"
    case expiration = "exp"
    case notBefore = "nbf"
    case issuedAt = "iat"
    case scope = "scope"
    case issuer = "iss"
    case audience = "aud"
}

extension TokenClaims {
    /// Reads the claims out of a parsed payload.
    /// - Throws: `TokenError.missingClaim` or `.invalidClaim` naming the first bad claim.
    static func read(from members: [(String, JSONValue)]) throws(TokenError) -> TokenClaims {
        func member(_ claim: TokenClaim) -> JSONValue? {
            members.first { $0.0 == claim.rawValue }?.1
        }
        guard let subjectValue = member(.subject) else { throw .missingClaim(.subject) }
        guard case .string(let subject) = subjectValue, Identifier.isValidListName(subject) else {
            throw .invalidClaim(.subject)
        }
        guard let expirationValue = member(.expiration) else { throw .missingClaim(.expiration) }
        guard let expiresAt = numericDate(expirationValue, roundingUp: false) else {
            throw .invalidClaim(.expiration)
        }
        var claims = TokenClaims(subject: subject, expiresAt: expiresAt)
        if let value = member(.notBefore) {
            guard let notBefore = numericDate(value, roundingUp: true) else { throw .invalidClaim(.notBefore) }
            claims.notBefore = notBefore
        }
        if let value = member(.issuedAt) {
            guard let issuedAt = numericDate(value, roundingUp: false) else { throw .invalidClaim(.issuedAt) }
            claims.issuedAt = issuedAt
        }
        if let value = member(.scope) {
            guard case .string(let text) = value, let scope = TokenScope(claim: text) else {
                throw .invalidClaim(.scope)
            }
            // One rule for every token, HS256 or a provider's (issue 38): a claim naming none of
            // read, write, admin (`openid profile`, scopes meant for other services) grants what
            // a token without the claim has, read and write on its own list.
            claims.scope = scope.isEmpty ? .absentClaim : scope
        }
        return claims
    }

    /// A NumericDate (RFC 7519 §2: seconds since the epoch, possibly fractional) in whole
    /// seconds, rounded towards the stricter side; nil for anything else or out of range.
    private static func numericDate(_ value: JSONValue, roundingUp: Bool) -> Int64? {
        guard case .number(let number, let integer) = value else { return nil }
        if let integer {
            return (0...latestNumericDate).contains(integer) ? integer : nil
        }
        let rounded = roundingUp ? number.rounded(.up) : number.rounded(.down)
        guard rounded >= 0, rounded <= Double(latestNumericDate) else { return nil }
        return Int64(rounded)
    }
}
