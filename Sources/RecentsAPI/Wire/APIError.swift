import HTTPServer
import RecentsCore
import RecentsJSON

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

    /// One of the contract's problem types: its status, slug and fixed title, and how long a client
    /// should wait before a retry. Called with a request's detail, it is that request's error
    /// (`throw .notFound("no row 'x'")`), so each slug is stated once, in the table below.
    public struct Problem: Sendable {
        /// HTTP status code.
        public let status: Int
        /// The problem `type` slug.
        public let type: String
        /// The slug's fixed summary.
        public let title: String
        /// Seconds for `Retry-After`, or nil when retrying the same request cannot help.
        public let retryAfter: Int?

        init(_ status: Int, _ type: String, _ title: String, retryAfter: Int? = nil) {
            self.status = status
            self.type = type
            self.title = title
            self.retryAfter = retryAfter
        }

        /// The error of this kind, saying what went wrong with one request.
        public func callAsFunction(_ detail: String) -> APIError {
            APIError(
                status: status, type: type, title: title, detail: detail,
                headers: retryAfter.map { [("Retry-After", String($0))] } ?? [])
        }
    }

    /// 400: the body is not JSON at all.
    public static let invalidJSON = Problem(400, "invalid-json", "Body is not valid JSON")
    /// 400: a bad query parameter or malformed request.
    public static let badRequest = Problem(400, "bad-request", "Bad request")
    /// 404: no such list, call, row or option.
    public static let notFound = Problem(404, "not-found", "Not found")
    /// 406: the client's `Accept` excludes the only media type the endpoint answers in.
    public static let notAcceptable = Problem(406, "not-acceptable", "Not acceptable")
    /// 409: the request contradicts what is stored.
    public static let conflict = Problem(409, "conflict", "Conflict")
    /// 409: the write would take the list beyond `--max-calls-per-list` live calls.
    public static let listFull = Problem(409, "list-full", "List is full")
    /// 415: a body that is not `application/json`.
    public static let unsupportedMediaType = Problem(415, "unsupported-media-type", "Unsupported media type")
    /// 503: the server is shedding load; retry later.
    public static let overloaded = Problem(503, "overloaded", "Overloaded", retryAfter: 1)
    /// 503 for /healthz: the database does not answer.
    public static let unavailable = Problem(503, "overloaded", "Service unavailable", retryAfter: 5)

    /// 422: the body is JSON of the wrong shape or with values out of range.
    public static func validationFailed(_ errors: [FieldError]) -> APIError {
        let detail =
            errors.count == 1
            ? "\(errors[0].field) \(errors[0].message)" : "\(errors.count) members are invalid"
        return APIError(
            status: 422, type: "validation-failed", title: "Request body failed validation", detail: detail,
            errors: errors)
    }

    /// 410: the client's version cannot be answered; it must reload without `since`.
    public static func resyncRequired(_ detail: String, currentVersion: Int64) -> APIError {
        APIError(
            status: 410, type: "resync-required", title: "Resync required", detail: detail,
            currentVersion: currentVersion)
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
            json.array(errors) { $0.fieldError($1) }
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
