import HTTPServer

/// The problem+json of the answers the HTTP server makes itself, before any route runs
/// (400 malformed HTTP, 408, 413, 414, 431, 503 at the connection limit, 505).
///
/// HTTPServer knows no slugs: it calls this renderer through
/// `HTTPServerConfiguration.errorResponse`. The slugs, titles and `Retry-After` are those the
/// server wrote before the seam existed, so clients see no change; CORS headers are added so a
/// browser client can read these errors too.
enum ServerErrorResponse {
    /// A renderer for `HTTPServerConfiguration.errorResponse`.
    static func renderer(corsOrigin: String?) -> @Sendable (_ status: Int, _ detail: String) -> HTTPResponse {
        let cors = Exchange.corsHeaders(origin: corsOrigin)
        return { status, detail in
            var response = response(status: status, detail: detail)
            for header in cors { response.headers.add(header.name, header.value) }
            return response
        }
    }

    /// The problem+json answer for `status`, without CORS headers.
    static func response(status: Int, detail: String) -> HTTPResponse {
        let problem = APIError(
            status: status, type: slug(status), title: HTTPResponse.reasonPhrase(status), detail: detail)
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/problem+json")
        if status == 503 { headers.add("Retry-After", "1") }
        return HTTPResponse(status: status, headers: headers, body: problem.body)
    }

    /// The documented slug of each status the server answers itself (docs/API.md).
    static func slug(_ status: Int) -> String {
        switch status {
        case 400, 505: return "bad-request"
        case 404: return "not-found"
        case 405: return "method-not-allowed"
        case 408: return "request-timeout"
        case 413: return "payload-too-large"
        case 414: return "uri-too-long"
        case 431: return "headers-too-large"
        case 503: return "overloaded"
        default: return "internal"
        }
    }
}
