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

    /// Reads a problem; absent `type` is `about:blank` and absent `title` empty, as RFC 9457 §3.1
    /// allows, so a proxy's or an older server's partial problem still carries its `detail`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? "about:blank"
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
        status = try container.decodeIfPresent(Int.self, forKey: .status) ?? 0
        detail = try container.decodeIfPresent(String.self, forKey: .detail)
        errors = try container.decodeIfPresent([FieldError].self, forKey: .errors)
        currentVersion = try container.decodeIfPresent(Int.self, forKey: .currentVersion)
    }

    private enum CodingKeys: String, CodingKey {
        case type, title, status, detail, errors, currentVersion
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

extension RecentsClientError: CustomStringConvertible {
    /// One sentence for a log or a terminal, e.g. `401 unauthorized: This request needs …`.
    public var description: String {
        switch self {
        case .problem(let problem):
            let what = problem.detail ?? (problem.title.isEmpty ? nil : problem.title)
            return "the server answered \(problem.status) \(problem.type)" + (what.map { ": \($0)" } ?? "")
        case .transport(let sentence): return sentence
        case .invalidResponse(let sentence): return "an answer the client cannot read: \(sentence)"
        case .cancelled: return "cancelled"
        }
    }
}
