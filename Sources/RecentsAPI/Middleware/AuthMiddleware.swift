import HTTPServer
import RecentsAuth

/// Bearer-token access control (issue 10): innermost in the pipeline, so metrics still count
/// and CORS still labels what it refuses. Verification runs on the event loop, so the hot
/// cached `GET rows` is answered there as before: a token seen before costs a lookup in the
/// verifier's `TokenCache`, a new one a few microseconds of HMAC (HS256) or tens to hundreds of
/// microseconds of public-key verification (a provider's token, once per token).
struct AuthMiddleware: Middleware {
    let verifier: JWTVerifier

    /// The RFC 6750 §2.3 query parameter, read only on endpoints that accept it.
    static let queryParameter = "access_token"

    func inbound(_ exchange: inout Exchange) throws(APIError) {
        // The table's own answers (404, 405, `OPTIONS`) name no list's contents: a preflight
        // carries no credentials, and a 404 for an unknown path is the same for every caller.
        // Only the two fields are read, not the endpoint nor the request copied: this runs on
        // every request, and each copy retains every reference they hold.
        guard let endpointAccess = exchange.route.endpoint?.access else { return }
        let resource: ProtectedResource
        switch endpointAccess {
        case .open: return
        case .admin: resource = .metrics
        case .identity: resource = .identity
        case .list: resource = .list(exchange.parameter(0))
        }
        let credential = exchange.credential(verifier)
        let method = exchange.request.method
        let access: AccessKind = method == .GET || method == .HEAD ? .read : .write
        let decision = Authorizer.decide(credential, resource: resource, access: access)
        if let error = decision.apiError { throw error }
        if case .allow(let claims) = decision { exchange.context.claims = claims }
        // A shared cache must not hand one token's answer to another token (RFC 9110 §12.5.5).
        exchange.context.variesOnAuthorization = access == .read
    }

    func outbound(_ response: inout HTTPResponse, for exchange: Exchange) {
        // Usually already there, put by `Exchange.send` beside `Accept-Encoding`; any other answer
        // (a stream's head, an error) gets it here.
        guard exchange.context.variesOnAuthorization else { return }
        response.headers.addListToken("Authorization", to: "Vary")
    }
}
