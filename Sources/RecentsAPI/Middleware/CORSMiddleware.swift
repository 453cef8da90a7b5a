import HTTPServer

/// CORS for one configured origin (`--cors-origin`): every answer names it, and the answer to
/// `OPTIONS` (the preflight) also lists the path's methods. The request's `Origin` is not
/// compared; with no origin configured this adds nothing.
struct CORSMiddleware: Middleware {
    /// The allowed origin, or nil when CORS is off.
    let origin: String?
    /// Request headers a preflight allows.
    static let allowedHeaders = "Authorization, Content-Type, If-None-Match, X-Request-Id, Idempotency-Key, Prefer"
    /// Response headers a browser script may read.
    static let exposedHeaders = "ETag, X-Request-Id, Retry-After, Allow, Idempotent-Replayed, Preference-Applied"

    func outbound(_ response: inout HTTPResponse, for exchange: Exchange) {
        guard origin != nil else { return }
        if exchange.request.method == .OPTIONS, response.status == 204, let allow = response.headers["Allow"] {
            response.headers.set("Access-Control-Allow-Methods", allow)
            response.headers.set("Access-Control-Allow-Headers", Self.allowedHeaders)
            response.headers.set("Access-Control-Max-Age", "600")
        }
        addOriginHeaders(to: &response.headers)
    }

    /// Adds the headers every answer carries when an origin is configured.
    func addOriginHeaders(to headers: inout HTTPHeaders) {
        for (name, value) in originHeaders {
            // `Vary` is shared with auth's `Authorization`, so it is added to, not replaced.
            if name == "Vary" { headers.addListToken(value, to: "Vary") } else { headers.set(name, value) }
        }
    }

    /// The headers every answer carries (none when CORS is off), also for the HTTP layer's own answers.
    var originHeaders: [(name: String, value: String)] {
        guard let origin else { return [] }
        var headers = [
            (name: "Access-Control-Allow-Origin", value: origin),
            (name: "Access-Control-Expose-Headers", value: Self.exposedHeaders),
        ]
        if origin != "*" { headers.append((name: "Vary", value: "Origin")) }
        return headers
    }
}
