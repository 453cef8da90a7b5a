import RecentsCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A client of one Recents server: one `async` method per endpoint of `docs/API.md`, plus `follow`.
public struct RecentsClient: Sendable {
    /// The server's root, e.g. `http://127.0.0.1:8080`.
    public var baseURL: URL
    /// A bearer token sent as `Authorization: Bearer …` on every request, when set.
    public var token: String?
    /// How requests reach the server (`URLSessionTransport` in the `RecentsClient` product).
    public var transport: any RecentsTransport
    /// Header fields sent with every request (e.g. a `User-Agent`).
    public var headers: [(name: String, value: String)]

    /// Creates a client that sends its requests through `transport`.
    public init(
        baseURL: URL, token: String? = nil, transport: any RecentsTransport,
        headers: [(name: String, value: String)] = []
    ) {
        self.baseURL = baseURL
        self.token = token
        self.transport = transport
        self.headers = headers
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

    /// Percent-encodes one path segment: RFC 3986 `pchar` stays, anything else (a `/` too) is escaped.
    static func encodeSegment(_ segment: String) -> String {
        var encoded = ""
        for byte in segment.utf8 {
            if isPathCharacter(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                encoded += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return encoded
    }

    /// RFC 3986 §3.3 `pchar`: unreserved, sub-delims, `:` and `@`.
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("-._~!$&'()*+,;=:@".utf8).contains(byte)
        }
    }

    /// A request with the client's headers (bearer token, `Accept`), an optional JSON body and `Idempotency-Key`.
    func request(
        _ method: String, _ url: URL, body: Data? = nil, accept: String = "application/json", timeout: Double = 60,
        key: String? = nil
    ) -> TransportRequest {
        var fields = headers + [("Accept", accept)]
        if let token { fields.append(("Authorization", "Bearer \(token)")) }
        if body != nil { fields.append(("Content-Type", "application/json")) }
        if let key { fields.append(("Idempotency-Key", key)) }
        return TransportRequest(method: method, url: url, headers: fields, body: body, timeout: timeout)
    }

    /// Sends a request and decodes a 2xx answer as `Reply`; any other status throws its problem.
    func send<Reply: Decodable>(_ request: TransportRequest, as _: Reply.Type) async throws(RecentsClientError) -> Reply
    {
        try Self.decode(Reply.self, from: try await exchange(request))
    }

    /// Sends a request and returns the body of a 2xx answer; any other status throws its problem.
    func exchange(_ request: TransportRequest) async throws(RecentsClientError) -> Data {
        try await answer(request).body
    }

    /// Sends a request and returns a 2xx answer (or a 304 when `notModified`, for a request with
    /// `If-None-Match`); any other status throws its problem.
    func answer(_ request: TransportRequest, notModified: Bool = false) async throws(RecentsClientError)
        -> TransportResponse
    {
        if Task.isCancelled { throw .cancelled }
        let response = try await transport.send(request)
        guard (200..<300).contains(response.status) || (notModified && response.status == 304) else {
            throw .problem(Self.problem(status: response.status, response.body))
        }
        return response
    }

    /// `data` decoded as `Reply`, or `.invalidResponse` naming the type.
    static func decode<Reply: Decodable>(_: Reply.Type, from data: Data) throws(RecentsClientError) -> Reply {
        do {
            return try JSONDecoder().decode(Reply.self, from: data)
        } catch {
            throw .invalidResponse("\(Reply.self): \(error)")
        }
    }

    /// The problem+json of an error answer, or a stand-in built from the status when the body is not one.
    static func problem(status: Int, _ data: Data) -> Problem {
        if var problem = try? JSONDecoder().decode(Problem.self, from: data) {
            problem.status = status
            return problem
        }
        return Problem(type: "about:blank", title: "HTTP status \(status)", status: status)
    }

    /// JSON-encodes a request body with sorted keys: `JSONEncoder` otherwise orders members
    /// differently from one process to the next, and a retry under the same `Idempotency-Key`
    /// must send the same bytes.
    static func body(_ value: some Encodable) throws(RecentsClientError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            return try encoder.encode(value)
        } catch {
            throw .invalidResponse("cannot encode the request body: \(error)")
        }
    }
}
