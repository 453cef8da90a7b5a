import RecentsCore

/// An RFC 9457 problem+json answer of the server, as `docs/API.md` "Errors" describes it.
public struct Problem: Codable, Sendable, Hashable {
    /// The slug clients switch on (`validation-failed`, `resync-required`, ...).
    public var type: String
    /// The fixed title of the slug.
    public var title: String
    /// The HTTP status.
    public var status: Int
    /// What went wrong with this request, if the server said.
    public var detail: String?
    /// The invalid members of a 422 `validation-failed`.
    public var errors: [FieldError]?
    /// The list's version, on a 410 `resync-required`.
    public var currentVersion: Int?

    /// Creates a problem.
    public init(
        type: String, title: String, status: Int, detail: String? = nil, errors: [FieldError]? = nil,
        currentVersion: Int? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.errors = errors
        self.currentVersion = currentVersion
    }

    /// Whether the server asks the client to reload with no `since` (410).
    public var isResyncRequired: Bool { status == 410 || type == "resync-required" }
}

/// Everything a `RecentsClient` call can fail with.
public enum RecentsClientError: Error, Sendable, Hashable {
    /// The server answered with a problem+json (or a non-2xx status, described as one).
    case problem(Problem)
    /// No answer: connection refused, reset, timed out, or the URL could not be built.
    case transport(String)
    /// A 2xx answer whose body is not the JSON the contract describes.
    case invalidResponse(String)
    /// The calling task was cancelled.
    case cancelled

    /// The problem, when the server answered one.
    public var problem: Problem? {
        if case .problem(let problem) = self { return problem }
        return nil
    }

    /// Whether retrying the same request later may succeed (transport failures, 503, 500).
    public var isTransient: Bool {
        switch self {
        case .transport: return true
        case .problem(let problem): return problem.status == 503 || problem.status == 500 || problem.status == 408
        case .invalidResponse, .cancelled: return false
        }
    }
}
