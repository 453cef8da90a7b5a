import Foundation
import RecentsClientCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport apps use: `URLSession`, so requests share the system's proxy, TLS and
/// connection settings (FoundationNetworking on Linux).
public struct URLSessionTransport: RecentsTransport {
    /// The session requests go through.
    public var session: URLSession

    /// A transport over `session`.
    public init(session: URLSession) {
        self.session = session
    }

    /// Sends one request through the session.
    public func send(_ request: TransportRequest) async throws(RecentsClientError) -> TransportResponse {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: Self.urlRequest(request))
        } catch {
            if Task.isCancelled || (error as? URLError)?.code == .cancelled || error is CancellationError {
                throw .cancelled
            }
            throw .transport("\(request.method) \(request.url.path): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else { throw .invalidResponse("not an HTTP response") }
        return TransportResponse(status: http.statusCode, headers: Self.fields(of: http), body: data)
    }

    /// The `URLRequest` of a transport request.
    static func urlRequest(_ request: TransportRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        return urlRequest
    }

    /// The answer's header fields as name-value pairs.
    static func fields(of response: HTTPURLResponse) -> [(name: String, value: String)] {
        response.allHeaderFields.compactMap { name, value in
            guard let name = name as? String, let value = value as? String else { return nil }
            return (name, value)
        }
    }
}

extension RecentsClient {
    /// Creates a client over `URLSession`; `session` defaults to an ephemeral one (no cookies, no cache).
    public init(baseURL: URL, token: String? = nil, session: URLSession? = nil) {
        self.init(
            baseURL: baseURL, token: token,
            transport: URLSessionTransport(session: session ?? URLSession(configuration: .ephemeral)))
    }

    /// The session requests go through, when the transport is `URLSessionTransport`.
    public var session: URLSession? { (transport as? URLSessionTransport)?.session }
}
