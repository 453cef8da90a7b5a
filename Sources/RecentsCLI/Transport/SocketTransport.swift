import HTTPClient
import RecentsClientCore
import SystemSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// The command line's `RecentsTransport`: `HTTPClient`'s blocking sockets, so `recents` links no
/// FoundationNetworking (and no libcurl) yet drives the same client as apps do.
///
/// Each request runs on a thread of its own, never on the cooperative pool: a long-poll or an
/// event stream blocks its thread for as long as it is open. Cancelling shuts the socket down,
/// which wakes the thread at once. Every request uses a connection of its own, closed after it.
/// Answers are asked for compressed (`Accept-Encoding: br, gzip`) and decoded here, whole bodies
/// and streamed ones piece by piece, so the client above sees identity bytes; fields are passed
/// up as received.
struct SocketTransport: RecentsTransport {
    /// Replaces each request's own timeout when set (`seed --timeout`).
    var timeout: Duration?

    func send(_ request: TransportRequest) async throws(RecentsClientError) -> TransportResponse {
        let target = try SocketTarget(request.url)
        let call = SocketCall()
        let timeout = self.timeout ?? Self.duration(request.timeout)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<TransportResponse, RecentsClientError>, Never>) in
                _ = JoinableThread.start(name: "recents-request") {
                    continuation.resume(
                        returning: Result { () throws(RecentsClientError) in
                            try call.run(target, timeout: timeout) { connection throws(HTTPClientError) in
                                connection.acceptsCompression = true
                                let response = try connection.request(
                                    request.method, target.target, bytes: request.body.map { Array($0) },
                                    headers: Self.fields(request))
                                return TransportResponse(
                                    status: response.status, headers: response.headers.fields, body: Data(response.body)
                                )
                            }
                        })
                }
            }
        } onCancel: {
            call.cancel()
        }
        return try result.get()
    }

    func stream(_ request: TransportRequest, capacity: Int) -> TransportStream {
        let (parts, continuation) = AsyncThrowingStream.makeStream(
            of: TransportStreamPart.self, bufferingPolicy: .bufferingOldest(max(1, capacity)))
        let call = SocketCall()
        continuation.onTermination = { _ in call.cancel() }
        let timeout = self.timeout ?? Self.duration(request.timeout)
        _ = JoinableThread.start(name: "recents-stream") {
            do throws(RecentsClientError) {
                let target = try SocketTarget(request.url)
                try call.run(target, timeout: timeout) { connection throws(HTTPClientError) in
                    try StreamReader(connection: connection, continuation: continuation).read(request, target)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return TransportStream(parts: parts) {
            call.cancel()
            continuation.finish()
        }
    }

    /// The request's fields, plus `Connection: close` (each connection carries one exchange) and,
    /// unless the request names its own, `Accept-Encoding: br, gzip`.
    static func fields(_ request: TransportRequest) -> [(String, String)] {
        var fields = request.headers.map { ($0.name, $0.value) }
        if !fields.contains(where: { $0.0.lowercased() == "accept-encoding" }) {
            fields.append(("Accept-Encoding", HTTPConnection.acceptedCodings))
        }
        return fields + [("Connection", "close")]
    }

    /// Seconds as a `Duration`, at least a millisecond.
    static func duration(_ seconds: Double) -> Duration {
        .milliseconds(max(1, Int64((seconds * 1000).rounded())))
    }
}
