import HTTPServer
import RecentsAuth

/// A per-request concern around every endpoint (metrics, CORS, next: authentication), a value
/// composed into the pipeline once at start-up.
///
/// Answers are asynchronous (a store read answers later, from another thread), so a middleware
/// is two hooks rather than a closure around `next`: `inbound` sees the request after routing and
/// before the endpoint, and may refuse it by throwing (auth's 401/403) or note what it learned in
/// `exchange.context` (auth's identity, which the endpoint then reads); `outbound` sees every
/// answer's status and headers on its way out (also the head of a streamed answer, whose body
/// follows later). Neither allocates anything per request by itself.
protocol Middleware: Sendable {
    /// Runs before the endpoint, in pipeline order; throwing answers the request with the error.
    func inbound(_ exchange: inout Exchange) throws(APIError)

    /// Runs on the answer, in reverse pipeline order, for each middleware whose `inbound` let the
    /// request pass: so an outer middleware (metrics, CORS) also sees what an inner one refused.
    func outbound(_ response: inout HTTPResponse, for exchange: Exchange)
}

extension Middleware {
    /// Lets every request pass.
    func inbound(_ exchange: inout Exchange) throws(APIError) {}

    /// Leaves every answer as it is.
    func outbound(_ response: inout HTTPResponse, for exchange: Exchange) {}
}

/// What middleware learned about a request, for the endpoint to read.
struct RequestContext: Sendable {
    /// The verified token the request was allowed on; nil when auth is off or the route is open.
    var claims: TokenClaims?
    /// What the request's token proved, once worked out (`Exchange.credential`); nil before.
    var credential: Credential?
    /// Whether the answer depends on the request's `Authorization` (a read that auth let pass), so
    /// that a shared cache keys it by the token too (`Vary`, set with the coding's own token).
    var variesOnAuthorization = false

    /// The Unix second at which a parked long-poll or an open stream of this request ends: its
    /// token's `exp` exactly (the clock skew is only for accepting a token). Nil when no token
    /// bounds it.
    var tokenExpiry: Int64? { claims?.expiresAt }
}
