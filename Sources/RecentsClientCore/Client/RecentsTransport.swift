#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a `RecentsClient` reaches its server: one request and its whole answer, or one request
/// whose answer streams.
///
/// Everything else in the client (endpoints, problem+json, idempotency keys, `follow` with its
/// event stream, long-poll, resync and backoff) is written against this seam, so the same code
/// runs over `URLSession` in an app (the `RecentsClient` product's default) and over plain
/// sockets in the `recents` command line, which links no full Foundation.
public protocol RecentsTransport: Sendable {
    /// Sends `request` and returns its answer, whatever the status.
    /// - Throws: `RecentsClientError.transport` when no complete answer arrives within
    ///   `request.timeout`, `.cancelled` when the calling task is cancelled.
    func send(_ request: TransportRequest) async throws(RecentsClientError) -> TransportResponse

    /// Sends `request` and returns its answer as it arrives: `.head` first, then `.body` chunks.
    ///
    /// The parts end when the server ends the answer, and throw a `RecentsClientError` when the
    /// connection fails. At most `capacity` parts wait for the consumer: one more ends the parts
    /// (cleanly) and closes the connection, so a slow consumer never grows memory. Closing the
    /// stream, or cancelling the task that iterates its parts, closes the connection.
    func stream(_ request: TransportRequest, capacity: Int) -> TransportStream
}

/// One request as the client builds it (transports read it; only the client makes one).
public struct TransportRequest: Sendable {
    /// `GET`, `POST`, `PUT` or `DELETE`.
    public var method: String
    /// The absolute URL, path segments and query already percent-encoded.
    public var url: URL
    /// Header fields to send besides `Host` and `Content-Length`.
    public var headers: [(name: String, value: String)]
    /// The body, or nil for none.
    public var body: Data?
    /// Seconds without progress after which the request fails.
    public var timeout: Double

    /// The value of header field `name` (case-insensitive), or nil.
    public func header(_ name: String) -> String? { TransportResponse.field(name, in: headers) }
}

/// One complete answer.
public struct TransportResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields as received.
    public var headers: [(name: String, value: String)]
    /// The de-framed body.
    public var body: Data

    /// Creates an answer.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of header field `name` (case-insensitive), or nil.
    public func header(_ name: String) -> String? { Self.field(name, in: headers) }

    /// The first field named `name` in `fields`, ignoring case (RFC 9110 §5.1).
    static func field(_ name: String, in fields: [(name: String, value: String)]) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }
}

/// A piece of a streamed answer.
public enum TransportStreamPart: Sendable {
    /// The status and header fields, always first.
    case head(status: Int, headers: [(name: String, value: String)])
    /// Body bytes as they arrived, de-chunked.
    case body(Data)
}

/// A streamed answer: its parts, and a way to close the connection before it ends.
public struct TransportStream: Sendable {
    /// The parts, in order.
    public let parts: AsyncThrowingStream<TransportStreamPart, any Error>
    private let onClose: @Sendable () -> Void

    /// A stream of `parts` that `close` ends by running `onClose` (which must close the connection).
    public init(parts: AsyncThrowingStream<TransportStreamPart, any Error>, onClose: @escaping @Sendable () -> Void) {
        self.parts = parts
        self.onClose = onClose
    }

    /// Closes the connection; `parts` ends. Safe to call more than once.
    public func close() { onClose() }
}
