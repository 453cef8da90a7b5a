import Foundation
import HTTPClient
import Testing

/// The one HTTP client of the tests (`HTTPClient.HTTPConnection`), under the name the tests use.
public typealias TestHTTPClient = HTTPConnection
/// An answer as the tests see it: the client's one response type.
public typealias TestResponse = HTTPClientResponse
/// Why an exchange failed.
public typealias TestClientError = HTTPClientError

extension HTTPClientResponse {
    /// The body decoded as `T` with Foundation's decoder.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(body))
    }

    /// The body as a JSON object, for quick member checks.
    ///
    /// A body that is not a JSON object fails the running test (and reads as `[:]`), so a check that
    /// a member is absent cannot pass on an empty, truncated or HTML answer.
    public var json: [String: Any] {
        jsonObject()
    }

    /// `json`, failing the test at `sourceLocation` when the body is not a JSON object.
    public func jsonObject(sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            Issue.record(
                "the answer's body is not a JSON object (status \(status)): \(String(text.prefix(300)))",
                sourceLocation: sourceLocation)
            return [:]
        }
        return object
    }
}
