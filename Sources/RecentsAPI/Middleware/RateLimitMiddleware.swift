import RecentsAuth

/// Per-client rate limits (issue 25, item 6): each token's list, or each client address for a
/// request without a valid token (behind a trusted proxy, the address it forwards: issue 45), gets `--rate-limit` requests per second with bursts to twice
/// that; beyond, 429 `rate-limited` with `Retry-After`.
///
/// It sits before authentication, so a flood of bad tokens from one address is limited before
/// each costs a signature check, and reads the credential it works out into the context, where
/// authentication finds it (one token lookup per request). `/healthz` is exempt (probes must see
/// a limited server as healthy), and so are admin tokens (operators and backends acting for every
/// list). A long-poll or a stream reconnecting is a request like any other.
struct RateLimitMiddleware: Middleware {
    let limiter: RateLimiter
    /// Verifies the token that names the bucket; nil when auth is off (every client by address).
    let verifier: JWTVerifier?

    /// The middleware `service` is configured for: none when the rate is 0.
    static func make(_ service: Service) -> [any Middleware] {
        let settings = service.configuration.rateLimit
        guard settings.requestsPerSecond > 0 else { return [] }
        let limiter = RateLimiter(
            rate: settings.requestsPerSecond, buckets: settings.buckets, clock: settings.clock)
        return [RateLimitMiddleware(limiter: limiter, verifier: service.verifier)]
    }

    func inbound(_ exchange: inout Exchange) throws(APIError) {
        let segments = exchange.request.pathSegments
        if segments.count == 1, segments[0] == "healthz" { return }
        let key: RateLimitKey
        if let verifier, case .verified(let claims) = exchange.credential(verifier) {
            if claims.scope.contains(.admin) { return }
            key = .list(claims.subject)
        } else {
            key = .address(exchange.request.clientAddress)
        }
        if let seconds = limiter.admit(key) { throw .rateLimited(rate: limiter.rate, retryAfter: seconds) }
    }
}

extension APIError {
    /// 429: the client sent more than its rate allows (RFC 6585 §4), with the seconds to wait.
    static func rateLimited(rate: Int, retryAfter seconds: Int) -> APIError {
        APIError(
            status: 429, type: "rate-limited", title: "Too many requests",
            detail:
                "More than \(rate) \(rate == 1 ? "request" : "requests") per second (bursts to \(2 * rate)) "
                + "from this client; retry after \(seconds) s.",
            headers: [("Retry-After", String(seconds))])
    }
}
