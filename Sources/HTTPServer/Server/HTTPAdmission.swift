/// Decides on a request whose head has arrived, before any byte of its body is read
/// (`HTTPServerConfiguration.admission`): refuse it by answering `responder`, or let its body be
/// read. `head` is the request without its body.
///
/// Runs on the connection's event loop, like a handler, and must not block. What it keeps with
/// `HTTPResponder.remember` is kept for the connection's next requests, as from a handler.
public typealias HTTPAdmission = @Sendable (_ head: HTTPRequest, _ responder: HTTPResponder) -> HTTPAdmissionResult

/// What an admission hook decided.
public enum HTTPAdmissionResult: Sendable {
    /// Read the body; the whole request then goes to the handler (with a new responder), carrying
    /// `note` in `HTTPRequest.admission`, so what was worked out on the head is not worked out again.
    case readBody(note: (any Sendable)?)
    /// The request is answered through the head's responder (now, or later from any thread): its
    /// body is never read, and the connection closes after the answer.
    case answered
}
