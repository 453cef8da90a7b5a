import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One open `GET …/events` request: its parsed events arrive on `events`, at most `capacity` buffered.
///
/// When the consumer falls `capacity` events behind, the connection is closed and `overflowed`
/// set, rather than buffering without bound: the follower then reconnects from the last event
/// it delivered, and the server sends one transition that covers everything missed.
final class EventStreamConnection: Sendable {
    /// The events, ending when the server closes the stream; an error answer throws its problem.
    let events: AsyncThrowingStream<ServerSentEvent, any Error>
    private let session: URLSession
    private let delegate: Delegate

    /// Opens the request; the first event or the error answer arrives on `events`.
    init(request: URLRequest, configuration: URLSessionConfiguration, capacity: Int = 64) {
        let (events, continuation) = AsyncThrowingStream.makeStream(
            of: ServerSentEvent.self, bufferingPolicy: .bufferingOldest(capacity))
        let delegate = Delegate(continuation: continuation)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        self.events = events
        self.session = session
        self.delegate = delegate
        let task = session.dataTask(with: request)
        continuation.onTermination = { _ in
            // The consumer stopped (cancelled, or dropped the stream): close the connection.
            task.cancel()
            session.invalidateAndCancel()
        }
        task.resume()
    }

    /// Whether the connection was closed because the consumer fell behind.
    var overflowed: Bool { delegate.state.withLock { $0.overflowed } }

    /// Closes the connection; `events` ends.
    func close() { session.invalidateAndCancel() }

    deinit { session.invalidateAndCancel() }

    /// The session delegate: checks the answer's status and type, feeds the parser, and yields events.
    final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        struct State {
            var parser = ServerSentEventParser()
            var status = 0
            var isEventStream = false
            var errorBody = Data()
            var overflowed = false
        }

        let state = Locked(State())
        let continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation

        init(continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation) {
            self.continuation = continuation
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            let http = response as? HTTPURLResponse
            let type = http?.value(forHTTPHeaderField: "Content-Type")?.lowercased() ?? ""
            state.withLock {
                $0.status = http?.statusCode ?? 0
                $0.isEventStream = $0.status == 200 && type.hasPrefix("text/event-stream")
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let outcome: Result<[ServerSentEvent], ServerSentEventParser.TooLarge> = state.withLock { state in
                guard state.isEventStream else {
                    // An error answer's problem+json is small; keep at most 64 KiB of it.
                    if state.errorBody.count < 65_536 { state.errorBody.append(data.prefix(65_536)) }
                    return .success([])
                }
                return Result { () throws(ServerSentEventParser.TooLarge) in try state.parser.feed(data) }
            }
            switch outcome {
            case .success(let events):
                for event in events {
                    if case .dropped = continuation.yield(event) {
                        state.withLock { $0.overflowed = true }
                        continuation.finish()
                        dataTask.cancel()
                        return
                    }
                }
            case .failure:
                continuation.finish(throwing: RecentsClientError.invalidResponse("an event exceeds the size limit"))
                dataTask.cancel()
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let (status, isEventStream, body, overflowed) = state.withLock {
                ($0.status, $0.isEventStream, $0.errorBody, $0.overflowed)
            }
            session.finishTasksAndInvalidate()
            if overflowed { return }
            if let error {
                let cancelled = (error as? URLError)?.code == .cancelled
                continuation.finish(
                    throwing: cancelled ? RecentsClientError.cancelled : .transport(error.localizedDescription))
            } else if isEventStream {
                continuation.finish()
            } else if status == 200 {
                // A server that ignores `Accept` answered something else: treat it as "no stream here".
                continuation.finish(
                    throwing: RecentsClientError.problem(
                        Problem(type: "not-acceptable", title: "Not acceptable", status: 406)))
            } else {
                continuation.finish(throwing: RecentsClientError.problem(RecentsClient.problem(status: status, body)))
            }
        }
    }
}
