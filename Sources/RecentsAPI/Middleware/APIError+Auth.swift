import RecentsAuth
import RecentsCore

extension AuthDecision {
    /// The problem+json answer of a refusal, with its `WWW-Authenticate`; nil when allowed.
    ///
    /// Details stay coarse: an expired token is worth telling apart (the client should fetch a
    /// new one), and so is a `sub` that is no list name (an identity provider's user ids may not
    /// be: the provider's configuration must change, not the token); every other rejection reads
    /// the same, and no detail names the list.
    public var apiError: APIError? {
        guard let wwwAuthenticate else { return nil }
        let headers = [("WWW-Authenticate", wwwAuthenticate)]
        switch self {
        case .allow:
            return nil
        case .unauthorized(nil):
            return APIError(
                status: 401, type: "unauthorized", title: "Unauthorized",
                detail: "This request needs an Authorization: Bearer token.", headers: headers)
        case .unauthorized(let error):
            let detail: String
            switch error {
            case .expired: detail = "The bearer token has expired."
            case .notYetValid: detail = "The bearer token is not valid yet."
            case .invalidClaim(.subject), .missingClaim(.subject):
                detail = "The bearer token's sub claim is not a list name: it \(Identifier.listNameRule)."
            default: detail = "The bearer token is invalid."
            }
            return APIError(status: 401, type: "unauthorized", title: "Unauthorized", detail: detail, headers: headers)
        case .forbidden:
            return APIError(
                status: 403, type: "forbidden", title: "Forbidden",
                detail: "The bearer token does not grant this access.", headers: headers)
        }
    }
}

extension APIError {
    /// The 401 that ends a parked long-poll (or an open stream) whose token expired meanwhile.
    static let tokenExpired = AuthDecision.unauthorized(.expired).apiError ?? .internal()
}
