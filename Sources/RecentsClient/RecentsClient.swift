import Foundation
import RecentsCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client of one Recents server: one `async` method per endpoint of `docs/API.md`, plus `follow`.
public struct RecentsClient: Sendable {
    /// The server's root, e.g. `http://127.0.0.1:8080`.
    public var baseURL: URL
    /// A bearer token sent as `Authorization: Bearer …` on every request, when set.
    public var token: String?
    /// The session requests go through.
    public var session: URLSession

    /// Creates a client; `session` defaults to an ephemeral one (no cookies, no cache).
    public init(baseURL: URL, token: String? = nil, session: URLSession? = nil) {
        self.baseURL = baseURL
        self.token = token
        self.session = session ?? URLSession(configuration: .ephemeral)
    }

    /// The URL of path segments (percent-encoded) under `baseURL`'s path, with a query.
    func url(_ segments: [String], query: [(String, String)] = []) throws(RecentsClientError) -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) else {
            throw .transport("cannot build a URL from \(baseURL)")
        }
        // A base such as https://host/recents keeps its prefix: the API lives under it.
        var prefix = components.percentEncodedPath
        while prefix.hasSuffix("/") { prefix.removeLast() }
        components.percentEncodedPath = prefix + "/" + segments.map(Self.encodeSegment).joined(separator: "/")
        components.queryItems = query.isEmpty ? nil : query.map { URLQueryItem(name: $0.0, value: $0.1) }
        guard let url = components.url else { throw .transport("cannot build a URL from \(baseURL) and \(segments)") }
        return url
    }

    /// Percent-encodes one path segment (a `/` inside it stays data, not a separator).
    static func encodeSegment(_ segment: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }

    /// A request with the client's headers (bearer token, `Accept`) and an optional JSON body.
    func request(
        _ method: String, _ url: URL, body: Data? = nil, accept: String = "application/json",
        timeout: TimeInterval = 60
    ) -> URLRequest {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue(accept, forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// Sends a request and decodes a 2xx answer as `Reply`; any other status throws its problem.
    func send<Reply: Decodable>(_ request: URLRequest, as _: Reply.Type) async throws(RecentsClientError) -> Reply {
        let data = try await exchange(request)
        do {
            return try JSONDecoder().decode(Reply.self, from: data)
        } catch {
            throw .invalidResponse("\(Reply.self): \(error)")
        }
    }

    /// Sends a request and returns the body of a 2xx answer; any other status throws its problem.
    func exchange(_ request: URLRequest) async throws(RecentsClientError) -> Data {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            if Task.isCancelled || (error as? URLError)?.code == .cancelled || error is CancellationError {
                throw .cancelled
            }
            throw .transport("\(request.httpMethod ?? "GET") \(request.url?.path ?? ""): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else { throw .invalidResponse("not an HTTP response") }
        guard (200..<300).contains(http.statusCode) else { throw .problem(Self.problem(status: http.statusCode, data)) }
        return data
    }

    /// The problem+json of an error answer, or a stand-in built from the status when the body is not one.
    static func problem(status: Int, _ data: Data) -> Problem {
        if var problem = try? JSONDecoder().decode(Problem.self, from: data) {
            problem.status = status
            return problem
        }
        return Problem(
            type: "about:blank", title: HTTPURLResponse.localizedString(forStatusCode: status), status: status)
    }

    /// JSON-encodes a request body.
    static func body(_ value: some Encodable) throws(RecentsClientError) -> Data {
        do {
            return try JSONEncoder().encode(value)
        } catch {
            throw .invalidResponse("cannot encode the request body: \(error)")
        }
    }
}
