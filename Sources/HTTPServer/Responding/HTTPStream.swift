import Synchronization

/// A response whose body is sent in chunks over time, from any thread, with backpressure.
///
/// Start one with `HTTPResponder.startStream(status:headers:)`. On HTTP/1.1 the body is
/// `Transfer-Encoding: chunked` and the connection serves the next request after `finish()`;
/// on HTTP/1.0 it is close-delimited. Backpressure works like NIO's writability: at most one
/// chunk is in the server's hands beyond what the kernel took, so `write` returns false (and
/// queues nothing) while one is still pending, and `onWritable` says when it drained. The
/// producer then decides what to drop or merge; memory per stream never grows with its write rate.
///
/// Callbacks (`onWritable`, `onCancel`, `onShutdown`) run on the connection's event-loop thread
/// (or at once on the caller's thread when already due) and must not block.
///
/// Timeouts: an open stream has none of its own; it is closed only when its client reads
/// nothing for `HTTPServerConfiguration.idleTimeout` while a chunk is pending. Shutdown: see
/// `onShutdown(_:)`.
public final class HTTPStream: Sendable {
    private enum Phase {
        /// The head is on its way to the loop.
        case starting
        case open
        case finished
        case cancelled
    }

    private struct State {
        var phase = Phase.starting
        /// A chunk was handed over and the kernel has not taken all of it yet.
        var busy = false
        var writableHandler: (@Sendable () -> Void)?
        var cancelHandlers: [@Sendable () -> Void] = []
        var shutdownHandler: (@Sendable () -> Void)?
        /// `serverShutdown` ran: the drain pass and a late stream's own job may both reach it,
        /// and a second run would `finish()` a stream whose handler is still writing its last word.
        var shutdownSignalled = false
    }

    let responder: HTTPResponder
    /// The `SO_SNDBUF` to set before the head goes out (see `HTTPResponder.startStream`).
    let sendBuffer: Int?
    private let state: Mutex<State>

    init(responder: HTTPResponder, cancelled: Bool, sendBuffer: Int? = nil) {
        self.responder = responder
        self.sendBuffer = sendBuffer
        state = Mutex(State(phase: cancelled ? .cancelled : .starting))
    }

    /// The request id echoed in `X-Request-Id`.
    public var requestId: String { responder.requestId }

    /// Sends `bytes` as one chunk; false, with nothing queued, while an earlier chunk is still
    /// pending or once the stream finished or was cancelled. Empty `bytes` send nothing.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        let channel = responder.channel
        let route = state.withLock { s -> Bool? in
            guard s.phase == .starting || s.phase == .open, !s.busy else { return nil }
            if bytes.isEmpty { return false }
            s.busy = true
            // Directly only when nothing for this stream can still sit in the mailbox.
            return s.phase == .open && channel.isCurrentThread
        }
        guard let direct = route else { return false }
        if bytes.isEmpty { return true }
        channel.streamWrite(self, bytes, direct: direct)
        return true
    }

    /// Runs `handler` once when the pending chunk has drained (at once if none is pending);
    /// never after `finish()` or cancellation. A later call replaces an earlier, unrun handler.
    public func onWritable(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { s -> Bool in
            guard s.phase == .starting || s.phase == .open else { return false }
            if !s.busy { return true }
            s.writableHandler = handler
            return false
        }
        if runNow { handler() }
    }

    /// Ends the body (the terminating chunk on HTTP/1.1); later calls and writes do nothing.
    public func finish() {
        let channel = responder.channel
        let route = state.withLock { s -> Bool? in
            guard s.phase == .starting || s.phase == .open else { return nil }
            let direct = s.phase == .open && !s.busy && channel.isCurrentThread
            s.phase = .finished
            s.writableHandler = nil
            s.cancelHandlers = []
            s.shutdownHandler = nil
            return direct
        }
        guard let direct = route else { return }
        channel.streamFinish(self, direct: direct)
    }

    /// Whether the client went away (or the server closed the connection) before `finish()`.
    public var isCancelled: Bool { state.withLock { $0.phase == .cancelled } }

    /// Registers `handler` to run once on cancellation; runs it at once if already cancelled.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { s -> Bool in
            switch s.phase {
            case .cancelled: return true
            case .starting, .open: s.cancelHandlers.append(handler)
            case .finished: break
            }
            return false
        }
        if runNow { handler() }
    }

    /// Registers what to do when the server shuts down while the stream is open: typically write
    /// a last chunk and call `finish()`. Without a handler the server calls `finish()` itself.
    /// A stream still open when the grace period ends is closed (and cancelled).
    public func onShutdown(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { s in
            if s.phase == .starting || s.phase == .open { s.shutdownHandler = handler }
        }
    }

    // MARK: - Called by the event loop

    /// The head was written: writes may now go straight to the socket from the loop thread.
    func markOpen() {
        state.withLock { s in
            if s.phase == .starting { s.phase = .open }
        }
    }

    /// The pending chunk reached the kernel; wakes a producer that was told to wait.
    func drained() {
        let handler = state.withLock { s -> (@Sendable () -> Void)? in
            guard s.busy else { return nil }
            s.busy = false
            defer { s.writableHandler = nil }
            return s.phase == .open ? s.writableHandler : nil
        }
        handler?()
    }

    /// The connection closed before `finish()`.
    func cancel() {
        let handlers = state.withLock { s -> [@Sendable () -> Void] in
            guard s.phase == .starting || s.phase == .open else { return [] }
            s.phase = .cancelled
            s.writableHandler = nil
            s.shutdownHandler = nil
            defer { s.cancelHandlers = [] }
            return s.cancelHandlers
        }
        for handler in handlers { handler() }
    }

    /// The server is draining: runs the app's shutdown handler, or finishes the stream; once.
    func serverShutdown() {
        let action = state.withLock { s -> (@Sendable () -> Void)?? in
            guard s.phase == .starting || s.phase == .open, !s.shutdownSignalled else { return .none }
            s.shutdownSignalled = true
            defer { s.shutdownHandler = nil }
            return .some(s.shutdownHandler)
        }
        switch action {
        case .none: return
        case .some(.some(let handler)): handler()
        case .some(.none): finish()
        }
    }
}
