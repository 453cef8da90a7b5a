/// The facts of a request its answer still needs after the request itself is gone: the access
/// log line's method, path, client and duration, and the `X-Request-Id`.
struct RequestSummary: Sendable {
    /// The request method.
    let method: HTTPMethod
    /// The request target's path, as logged.
    let path: String
    /// The client's address (`HTTPRequest.clientAddress`), as logged.
    let remote: String
    /// The request id echoed in `X-Request-Id`.
    let requestId: String
    /// When the request was dispatched (monotonic nanoseconds), for the logged duration.
    let startNanos: UInt64
}
