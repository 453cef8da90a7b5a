import HTTPServer

// The answers the HTTP layer makes itself, before any route runs.
extension APIError {
    /// The error for a status the HTTP layer answers on its own (malformed HTTP, 408, 413, 414,
    /// 431, 503 at the connection limit, 505), with the slug clients switch on and the reason phrase as
    /// its title, as docs/API.md lists them.
    static func httpLayer(status: Int, detail: String) -> APIError {
        let type: String
        switch status {
        case 400: type = "bad-request"
        case 408: type = "request-timeout"
        case 413: type = "payload-too-large"
        case 414: type = "uri-too-long"
        case 431: type = "headers-too-large"
        case 503: type = "overloaded"
        case 505: type = "http-version-not-supported"
        default: type = "internal"
        }
        var error = APIError(status: status, type: type, title: HTTPResponse.reasonPhrase(status), detail: detail)
        if status == 503 { error.headers = [("Retry-After", "1")] }
        return error
    }

    /// The HTTP layer's answer for `status`, rendered like every API error and carrying the CORS
    /// headers of `cors`: what the server's error hook calls, so a browser can read those errors too.
    static func httpLayerResponse(status: Int, detail: String, cors: CORSMiddleware) -> HTTPResponse {
        var response = httpLayer(status: status, detail: detail).response
        cors.addOriginHeaders(to: &response.headers)
        return response
    }
}
