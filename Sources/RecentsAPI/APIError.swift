import HTTPServer
import RecentsCore

/// An answer other than success, rendered as RFC 9457 problem+json with one of the contract's slugs.
///
/// Every failure the API reports goes through here, so the slug, the status and the body
/// stay consistent, and nothing internal (SQL, bound values, stack traces) reaches a client.
public struct APIError: Error, Sendable, Hashable {
    /// HTTP status code.
    public var status: Int
    /// The problem `type` slug clients switch on.
    public var type: String
    /// A short, fixed summary of the slug.
    public var title: String
    /// What went wrong with this request, in words.
    public var detail: String
    /// For `validation-failed`: each broken member.
    public var errors: [FieldError] = []
    /// For `resync-required`: the list's current version.
    public var currentVersion: Int64?
    /// Extra headers (`Allow`, `Retry-After`).
    public var headers: [(String, String)] = []

    public static func == (lhs: APIError, rhs: APIError) -> Bool {
        lhs.status == rhs.status && lhs.type == rhs.type && lhs.detail == rhs.detail && lhs.errors == rhs.errors
            && lhs.currentVersion == rhs.currentVersion
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(type)
        hasher.combine(detail)
    }

    /// 400: the body is not JSON at all.
    public static func invalidJSON(_ detail: String) -> APIError {
        APIError(status: 400, type: "invalid-json", title: "Body is not valid JSON", detail: detail)
    }

    /// 422: the body is JSON of the wrong shape or with values out of range.
    public static func validationFailed(_ errors: [FieldError]) -> APIError {
        let detail =
            errors.count == 1
            ? "\(errors[0].field) \(errors[0].message)" : "\(errors.count) members are invalid"
        return APIError(
            status: 422, type: "validation-failed", title: "Request body failed validation", detail: detail,
            errors: errors)
    }

    /// 400: a bad query parameter or malformed request.
    public static func badRequest(_ detail: String) -> APIError {
        APIError(status: 400, type: "bad-request", title: "Bad request", detail: detail)
    }

    /// 404: no such list, call, row or option.
    public static func notFound(_ detail: String) -> APIError {
        APIError(status: 404, type: "not-found", title: "Not found", detail: detail)
    }

    /// 409: the request contradicts what is stored.
    public static func conflict(_ detail: String) -> APIError {
        APIError(status: 409, type: "conflict", title: "Conflict", detail: detail)
    }

    /// 410: the client's version cannot be answered; it must reload without `since`.
    public static func resyncRequired(_ detail: String, currentVersion: Int64) -> APIError {
        APIError(
            status: 410, type: "resync-required", title: "Resync required", detail: detail,
            currentVersion: currentVersion)
    }

    /// 406: the client's `Accept` excludes the only media type the endpoint answers in.
    public static func notAcceptable(_ detail: String) -> APIError {
        APIError(status: 406, type: "not-acceptable", title: "Not acceptable", detail: detail)
    }

    /// 415: a body that is not `application/json`.
    public static func unsupportedMediaType(_ detail: String) -> APIError {
        APIError(status: 415, type: "unsupported-media-type", title: "Unsupported media type", detail: detail)
    }

    /// 503: the server is shedding load; retry later.
    public static func overloaded(_ detail: String) -> APIError {
        APIError(
            status: 503, type: "overloaded", title: "Overloaded", detail: detail, headers: [("Retry-After", "1")])
    }

    /// 503 for /healthz: the database does not answer.
    public static func unavailable(_ detail: String) -> APIError {
        APIError(
            status: 503, type: "overloaded", title: "Service unavailable", detail: detail,
            headers: [("Retry-After", "5")])
    }

    /// 500: a fault of the server's own; the detail never carries internals.
    public static func `internal`() -> APIError {
        APIError(
            status: 500, type: "internal", title: "Internal server error",
            detail: "The server failed to complete the request; it has been logged.")
    }

    /// The answer: the one place an error becomes an HTTP response (RFC 9457 problem+json).
    public var response: HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/problem+json")
        for (name, value) in self.headers { headers.set(name, value) }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// The problem+json body.
    public var body: [UInt8] {
        var json = JSONWriter(capacity: 160)
        json.raw("{")
        json.key("type")
        json.string(type)
        json.comma()
        json.key("title")
        json.string(title)
        json.comma()
        json.key("status")
        json.int(status)
        json.comma()
        json.key("detail")
        json.string(detail)
        if !errors.isEmpty {
            json.comma()
            json.key("errors")
            json.raw("[")
            for (position, error) in errors.enumerated() {
                if position > 0 { json.comma() }
                json.raw("{")
                json.key("field")
                json.string(error.field)
                json.comma()
                json.key("message")
                json.string(error.message)
                json.raw("}")
            }
            json.raw("]")
        }
        if let currentVersion {
            json.comma()
            json.key("currentVersion")
            json.int(currentVersion)
        }
        json.raw("}")
        return json.bytes
    }
}
