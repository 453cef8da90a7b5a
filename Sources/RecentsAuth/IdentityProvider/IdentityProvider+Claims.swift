import RecentsJSON

extension IdentityProvider {
    /// The claims of a token this provider signed: `iss` exactly the issuer, `aud` (a string or an
    /// array of strings, RFC 7519 §4.1.3) holding the audience, then the claims every token has.
    ///
    /// Both compare byte for byte, without normalisation (RFC 7519 §2: StringOrURI values compare
    /// as case-sensitive strings), so `https://issuer.example/` is not `https://issuer.example`.
    /// A `scope` that names none of `read`, `write`, `admin` (a provider's `openid profile`) grants
    /// what a token without the claim has, read and write on its list, as for every token
    /// (`TokenClaims.read`).
    /// - Throws: `TokenError` naming the first claim at fault.
    func claims(from members: [(String, JSONValue)]) throws(TokenError) -> TokenClaims {
        func member(_ claim: TokenClaim) -> JSONValue? { members.first { $0.0 == claim.rawValue }?.1 }
        guard let issuerValue = member(.issuer) else { throw .missingClaim(.issuer) }
        guard case .string(let claimedIssuer) = issuerValue else { throw .invalidClaim(.issuer) }
        guard claimedIssuer.utf8.elementsEqual(issuer.utf8) else { throw .wrongIssuer }
        guard let audienceValue = member(.audience) else { throw .missingClaim(.audience) }
        var audiences: [String] = []
        switch audienceValue {
        case .string(let one):
            audiences = [one]
        case .array(let many):
            for element in many {
                guard case .string(let one) = element else { throw .invalidClaim(.audience) }
                audiences.append(one)
            }
        default:
            throw .invalidClaim(.audience)
        }
        guard audiences.contains(where: { $0.utf8.elementsEqual(audience.utf8) }) else { throw .wrongAudience }
        return try TokenClaims.read(from: members)
    }
}
