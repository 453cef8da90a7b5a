import RecentsAuth

extension Exchange {
    /// The request's credential under `verifier`, worked out once and kept in the context: the
    /// rate limiter needs it before authentication does, and a token should be looked up once.
    ///
    /// Read from every `Authorization` field and, on an endpoint that accepts it (the event stream),
    /// the `access_token` query parameter (RFC 6750 §2.3).
    mutating func credential(_ verifier: JWTVerifier) -> Credential {
        if let known = context.credential { return known }
        let accessToken =
            route.endpoint?.acceptsQueryToken == true
            ? request.query.first(where: { $0.name == AuthMiddleware.queryParameter })?.value : nil
        let credential = verifier.credential(
            authorization: request.headers.values(for: "Authorization"),
            accessToken: accessToken)
        context.credential = credential
        return credential
    }
}
