import Synchronization
import SystemSupport

/// Drives a handler without a socket or an event loop, as NIO's `EmbeddedChannel` does: a test
/// sends a request and reads its answer, whole or streamed, in process. What the event loop does
/// around a handler that matters to an endpoint is done here too: the request id, `X-Request-Id`,
/// no body for HEAD, 204 and 304, and a stream's chunks in order with backpressure released as
/// soon as each chunk is taken, and the admission hook's decision on a request with a body before
/// the handler sees it. Framing, sockets and timeouts are the loop's and are tested there.
public final class InProcessConnection: Sendable {
    private let handler: HTTPHandler
    private let admission: HTTPAdmission?
    private let nextId = Atomic<UInt64>(0)

    /// A connection to `handler`, whose requests with a body go through `admission` first.
    public init(handler: @escaping HTTPHandler, admission: HTTPAdmission? = nil) {
        self.handler = handler
        self.admission = admission
    }

    /// Hands `request` to the handler on the calling thread and returns the exchange its answer
    /// arrives in (at once, or later from another thread).
    public func send(_ request: HTTPRequest) -> InProcessExchange {
        var request = request
        if request.requestId.isEmpty {
            request.requestId = "in-process-\(nextId.wrappingAdd(1, ordering: .relaxed).newValue)"
        }
        let exchange = InProcessExchange(isHead: request.method == .HEAD)
        if let admission, !request.body.isEmpty {
            var head = request
            head.body = []
            let headResponder = HTTPResponder(
                channel: exchange, connection: ConnectionSlot(fd: -1, serial: 0), request: head, keepAlive: false,
                startNanos: SystemClock.monotonicNanoseconds())
            exchange.attach(headResponder)
            switch admission(head, headResponder) {
            case .answered:
                headResponder.markParkedIfPending()
                return exchange
            case .readBody(let note):
                request.admission = note
            }
        }
        let responder = HTTPResponder(
            channel: exchange, connection: ConnectionSlot(fd: -1, serial: 0), request: request, keepAlive: true,
            startNanos: SystemClock.monotonicNanoseconds())
        exchange.attach(responder)
        handler(request, responder)
        responder.markParkedIfPending()
        return exchange
    }
}

/// One request's answer as it arrives through an `InProcessConnection`.
public final class InProcessExchange: ResponseChannel {
    private struct State {
        var head: HTTPResponse?
        var body: [UInt8] = []
        var streamed = false
        var finished = false
        var responder: HTTPResponder?
        var stream: HTTPStream?
        var parked = 0
    }

    private let isHead: Bool
    private let condition = ThreadCondition()
    // Safe without a Mutex of its own: every access is inside `condition`'s lock (its `withLock`
    // or between `lock()` and `unlock()` in `wait`), which also orders the waits on it.
    nonisolated(unsafe) private var state = State()

    init(isHead: Bool) {
        self.isHead = isHead
    }

    func attach(_ responder: HTTPResponder) {
        condition.withLock { state.responder = responder }
    }

    // MARK: - What a test reads

    /// The status, headers and body so far (a stream's chunks concatenated); nil before the head.
    public var response: HTTPResponse? {
        condition.withLock {
            guard var head = state.head else { return nil }
            head.body = state.body
            return head
        }
    }

    /// Whether the answer is complete: a whole answer, or a stream that finished or was cancelled.
    public var isComplete: Bool { condition.withLock { state.finished } }

    /// Whether the answer is a stream.
    public var isStream: Bool { condition.withLock { state.streamed } }

    /// Whether the request waits for an answer from another thread (a parked long-poll).
    public var isParked: Bool { condition.withLock { state.parked > 0 } }

    /// Waits until the answer is complete, or `timeout` passed; returns what arrived.
    public func complete(within timeout: Duration) -> HTTPResponse? {
        wait(within: timeout) { $0.finished }
        return response
    }

    /// Waits until the body so far satisfies `done` (or the answer completes), or `timeout` passed.
    @discardableResult
    public func body(within timeout: Duration, until done: @escaping ([UInt8]) -> Bool) -> [UInt8] {
        wait(within: timeout) { $0.finished || ($0.head != nil && done($0.body)) }
        return condition.withLock { state.body }
    }

    /// The client goes away: a parked request or an open stream is cancelled, as when its
    /// connection closes.
    public func cancel() {
        let (responder, stream) = condition.withLock { () -> (HTTPResponder?, HTTPStream?) in
            state.finished = true
            condition.broadcast()
            return (state.responder, state.stream)
        }
        responder?.cancel()
        stream?.cancel()
    }

    private func wait(within timeout: Duration, _ ready: (State) -> Bool) {
        let deadline = SystemClock.monotonicNanoseconds() &+ SystemClock.nanoseconds(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !ready(state) {
            if !condition.wait(untilMonotonicNanoseconds: deadline) { return }
        }
    }

    // MARK: - ResponseChannel

    var isCurrentThread: Bool { false }

    func respond(_ responder: HTTPResponder, _ response: HTTPResponse) {
        var response = response
        let noBody = ResponseHead.hasNoBody(status: response.status, isHead: isHead)
        if !noBody || isHead { response.headers.set("Content-Length", String(response.body.count)) }
        response.headers.set("X-Request-Id", responder.requestId)
        condition.withLock {
            guard !state.finished else { return }
            state.body = noBody ? [] : response.body
            response.body = []
            state.head = response
            state.finished = true
            condition.broadcast()
        }
    }

    func startStream(_ stream: HTTPStream, _ response: HTTPResponse) {
        var response = response
        response.headers.set("X-Request-Id", stream.responder.requestId)
        let open = condition.withLock { () -> Bool in
            guard !state.finished else { return false }
            state.head = response
            state.streamed = true
            state.stream = stream
            condition.broadcast()
            return true
        }
        if open { stream.markOpen() } else { stream.cancel() }
    }

    func streamWrite(_ stream: HTTPStream, _ bytes: [UInt8], direct: Bool) {
        let taken = condition.withLock { () -> Bool in
            guard !state.finished else { return false }
            if !isHead { state.body.append(contentsOf: bytes) }
            condition.broadcast()
            return true
        }
        // The chunk is taken at once: the producer may write again.
        if taken { stream.drained() }
    }

    func streamFinish(_ stream: HTTPStream, direct: Bool) {
        condition.withLock {
            state.finished = true
            condition.broadcast()
        }
    }

    /// The exchange has no thread of its own: its answer is kept wherever it is made.
    func run(_ work: @escaping @Sendable () -> Void, for responder: HTTPResponder) { work() }

    /// One exchange is one request: nothing follows on its "connection" to remember anything for.
    func remember(_ memo: (any AnyObject & Sendable)?, for responder: HTTPResponder) {}

    func parkedChanged(by delta: Int) {
        condition.withLock { state.parked += delta }
    }
}
