import Foundation
import RecentsClientCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport {
    /// Opens a data task on a session of its own (its delegate sees the answer as it arrives).
    public func stream(_ request: TransportRequest, capacity: Int) -> TransportStream {
        let (parts, continuation) = AsyncThrowingStream.makeStream(
            of: TransportStreamPart.self, bufferingPolicy: .bufferingOldest(max(1, capacity)))
        let delegate = StreamDelegate(continuation: continuation)
        let streamSession = URLSession(configuration: session.configuration, delegate: delegate, delegateQueue: nil)
        let task = streamSession.dataTask(with: Self.urlRequest(request))
        let close: @Sendable () -> Void = {
            task.cancel()
            streamSession.invalidateAndCancel()
        }
        // The consumer stopped (cancelled, or dropped the stream): close the connection.
        continuation.onTermination = { _ in close() }
        task.resume()
        return TransportStream(parts: parts, onClose: close)
    }
}

/// The session delegate of one streamed answer: yields its head and chunks, ends on completion.
///
/// When the consumer is `capacity` parts behind, a yield is dropped: the task is cancelled and
/// the parts end cleanly instead of buffering without bound.
final class StreamDelegate: NSObject, URLSessionDataDelegate, Sendable {
    let continuation: AsyncThrowingStream<TransportStreamPart, any Error>.Continuation
    private let overflowed = Locked(false)

    init(continuation: AsyncThrowingStream<TransportStreamPart, any Error>.Continuation) {
        self.continuation = continuation
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let headers = http.map(URLSessionTransport.fields(of:)) ?? []
        yield(.head(status: http?.statusCode ?? 0, headers: headers), dataTask)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        yield(.body(data), dataTask)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        session.finishTasksAndInvalidate()
        if overflowed.withLock({ $0 }) { return }
        if let error {
            let cancelled = (error as? URLError)?.code == .cancelled
            continuation.finish(
                throwing: cancelled ? RecentsClientError.cancelled : .transport(error.localizedDescription))
        } else {
            continuation.finish()
        }
    }

    private func yield(_ part: TransportStreamPart, _ task: URLSessionDataTask) {
        if case .dropped = continuation.yield(part) {
            overflowed.withLock { $0 = true }
            continuation.finish()
            task.cancel()
        }
    }
}
