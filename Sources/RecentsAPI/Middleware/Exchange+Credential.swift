import RecentsAuth

extension Exchange {
    /// The request's credential under `verifier`, worked out once and kept in the context: the
    /// rate limiter needs it before authentication does, and a token should be looked up once.
    ///
    /// Read from every `Authorization` field and, on an endpoint that accepts it (the event stream),
    /// the `access_token` query parameter (RFC 6750 §2.3).
    mutating func credential(_ verifier: JWTVerifier) -> Credential {
        if let known = context.credential { return known }
        var accessToken: String?
        if route.endpoint?.acceptsQueryToken == true {
            let given = request.query.lazy.filter { $0.name == AuthMiddleware.queryParameter }
            // Two tokens are one too many whichever way they came (RFC 6750 §2: one method, one
            // token): as with header and query together, 401 `invalid_token`, never "first wins".
            if given.dropFirst().first != nil {
                context.credential = .rejected(.ambiguous)
                return .rejected(.ambiguous)
            }
            accessToken = given.first?.value
        }
        let remembered = request.connectionMemo as? RememberedToken
        // The usual request: one field with the token this connection sent before, matched where
        // it lies in the head, no string made of it.
        if let remembered, accessToken == nil,
            let sent = request.headers.withSoleValue(
                of: "Authorization", { verifier.credential(field: $0, remembered: remembered) }),
            let credential = sent
        {
            context.credential = credential
            return credential
        }
        // The kept token was just tried against the bytes: not handed on to be tried again.
        let (credential, keep) = verifier.credential(
            authorization: request.headers.values(for: "Authorization"), accessToken: accessToken, remembered: nil)
        // A client sends the same token on each request of a connection: kept there, it is
        // matched byte for byte next time instead of going through the cache every loop shares.
        // Not on the event stream (the one endpoint taking a query token): it holds its connection
        // until it ends, so nothing follows to match, and 16,000 streams would keep 16,000 tokens.
        if let keep, route.endpoint?.acceptsQueryToken != true { responder.remember(keep) }
        context.credential = credential
        return credential
    }
}
