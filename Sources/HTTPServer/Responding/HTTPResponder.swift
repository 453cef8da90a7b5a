internal import CHTTPShim
import Synchronization

/// The one-shot reply channel of a request: respond at once, park it and respond later from any
/// thread, or start a stream.
public final class HTTPResponder: Sendable {
    private struct State {
        var responded = false
        var cancelled = false
        var parked = false
        var cancelHandlers: [@Sendable () -> Void] = []
    }

    /// Where the answer goes: the connection's event loop, or an in-process exchange.
    let channel: any ResponseChannel
    /// The connection this answers, as it was when the request came (its slot may be reused since).
    let connection: ConnectionSlot
    let keepAlive: Bool
    let versionMinor: Int
    /// What the access log and `X-Request-Id` need of the request, kept without its head and body.
    let summary: RequestSummary
    private let state = Mutex(State())

    init(
        channel: any ResponseChannel, connection: ConnectionSlot, request: HTTPRequest, keepAlive: Bool,
        startNanos: UInt64
    ) {
        self.channel = channel
        self.connection = connection
        self.keepAlive = keepAlive
        self.versionMinor = request.versionMinor
        self.summary = RequestSummary(
            method: request.method, path: request.path, remote: request.clientAddress, requestId: request.requestId,
            startNanos: startNanos)
    }

    /// The request id echoed in `X-Request-Id`.
    public var requestId: String { summary.requestId }

    /// Whether the request was a HEAD, whose answer carries no body.
    var isHead: Bool { summary.method == .HEAD }

    /// Sends `response`; only the first call has an effect, and none after cancellation.
    public func respond(_ response: HTTPResponse) {
        guard claim() else { return }
        channel.respond(self, response)
    }

    /// Runs `work` on the thread that owns this request's connection (now, if that is the caller's),
    /// where an answer `work` sends is written at once. A producer that finishes many requests on
    /// one thread of its own (a store's single writer) hands over the building of each answer with
    /// it, so that thread does only what nothing else can do. When the connection's loop has
    /// stopped, `work` runs on the caller's thread (its answer then goes nowhere, as any would).
    public func onConnectionThread(_ work: @escaping @Sendable () -> Void) {
        channel.run(work, for: self)
    }

    /// Keeps `memo` for the next requests on this request's connection, which find it in
    /// `HTTPRequest.connectionMemo` (what a client sends on every request of a keep-alive
    /// connection, such as its token, is then worked out once per connection). It takes effect
    /// only while the handler call for this request, or work it handed to `onConnectionThread`,
    /// runs on the connection's event loop; from another thread, or for a request not read from a
    /// socket, it is ignored.
    public func remember(_ memo: (any AnyObject & Sendable)?) {
        channel.remember(memo, for: self)
    }

    /// Sends the head of a streamed response now; the body follows through the returned stream.
    ///
    /// The server frames the body (`Transfer-Encoding: chunked` on HTTP/1.1, close-delimited on
    /// HTTP/1.0) and owns `Content-Length`, `Transfer-Encoding` and `Connection`. When this
    /// request was already answered or cancelled, the stream comes back cancelled.
    ///
    /// `sendBuffer` caps the kernel's send buffer of the connection (`SO_SNDBUF`, which Linux
    /// doubles for its bookkeeping) for the rest of its life: a producer that coalesces while
    /// `write` says no wants that, since bytes the kernel holds are already committed, stale once
    /// newer data exists, and otherwise autotuned up to megabytes. nil keeps the kernel's autotuning.
    public func startStream(
        status: Int, headers: HTTPHeaders = HTTPHeaders(), sendBuffer: Int? = nil
    ) -> HTTPStream {
        guard claim() else { return HTTPStream(responder: self, cancelled: true) }
        let stream = HTTPStream(responder: self, cancelled: false, sendBuffer: sendBuffer)
        channel.startStream(stream, HTTPResponse(status: status, headers: headers))
        return stream
    }

    /// Marks the request answered; false when it already was, or was cancelled.
    private func claim() -> Bool {
        state.withLock { s -> Bool in
            if s.responded || s.cancelled { return false }
            s.responded = true
            s.cancelHandlers = []
            if s.parked {
                s.parked = false
                channel.parkedChanged(by: -1)
            }
            return true
        }
    }

    /// Whether the client went away (or the server closed the connection) before a response was sent.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Registers `handler` to run once on cancellation; runs it at once if already cancelled.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { s -> Bool in
            if s.cancelled { return true }
            if !s.responded { s.cancelHandlers.append(handler) }
            return false
        }
        if runNow { handler() }
    }

    /// Marks the request cancelled and runs the cancel handlers, unless it was already answered.
    func cancel() {
        let handlers = state.withLock { s -> [@Sendable () -> Void] in
            if s.responded || s.cancelled { return [] }
            s.cancelled = true
            if s.parked {
                s.parked = false
                channel.parkedChanged(by: -1)
            }
            let h = s.cancelHandlers
            s.cancelHandlers = []
            return h
        }
        for h in handlers { h() }
    }

    /// Called when the handler returned; counts the request as parked if it is still unanswered.
    func markParkedIfPending() {
        state.withLock { s in
            if !s.responded && !s.cancelled {
                s.parked = true
                channel.parkedChanged(by: 1)
            }
        }
    }
}
