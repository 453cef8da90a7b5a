#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One open `GET …/events` answer and what the follower has read of it.
///
/// Parts are parsed only as the follower asks for events, so the transport's bounded buffer is
/// the only queue. When one chunk completes more than `capacity` events, the rest are dropped
/// and the connection closed rather than kept: the follower delivers what it holds, then
/// reconnects from the last event it delivered, and the server sends one transition covering
/// everything missed.
struct EventStreamConnection: Sendable {
    /// The transport's answer.
    let stream: TransportStream
    /// The most parsed events kept for the consumer.
    let capacity: Int
    /// Events parsed and not yet delivered, oldest first.
    private(set) var pending: [ServerSentEvent] = []
    /// Whether the connection was closed because the consumer fell behind.
    private(set) var overflowed = false
    private var parser = ServerSentEventParser()
    private var status: Int?
    private var isEventStream = false
    private var errorBody = Data()

    /// Wraps a stream that has just been opened.
    init(stream: TransportStream, capacity: Int) {
        self.stream = stream
        self.capacity = max(1, capacity)
    }

    /// Reads one part: the head decides whether this is an event stream, body bytes become events.
    /// - Throws: `invalidResponse` when an event exceeds the parser's size limit.
    mutating func take(_ part: TransportStreamPart) throws(RecentsClientError) {
        switch part {
        case .head(let status, let headers):
            let type = TransportResponse.field("Content-Type", in: headers)?.lowercased() ?? ""
            self.status = status
            isEventStream = status == 200 && type.hasPrefix("text/event-stream")
        case .body(let bytes) where isEventStream:
            do {
                pending += try parser.feed(bytes)
            } catch {
                throw .invalidResponse("an event exceeds the size limit")
            }
            if pending.count > capacity {
                pending.removeLast(pending.count - capacity)
                overflowed = true
                stream.close()
            }
        case .body(let bytes):
            // An error answer's problem+json is small; keep at most 64 KiB of it.
            if errorBody.count < 65_536 { errorBody.append(bytes.prefix(65_536 - errorBody.count)) }
        }
    }

    /// The oldest pending event, removed.
    mutating func popEvent() -> ServerSentEvent? { pending.isEmpty ? nil : pending.removeFirst() }

    /// What the end of the parts means: nil for the clean end of an event stream (reconnect), else the error.
    var endError: RecentsClientError? {
        guard let status else { return .transport("the connection closed before an answer") }
        if isEventStream || overflowed { return nil }
        // A server that ignores `Accept` answered something else: treat it as "no stream here".
        if status == 200 { return .problem(Problem(type: "not-acceptable", title: "Not acceptable", status: 406)) }
        return .problem(RecentsClient.problem(status: status, errorBody))
    }
}
