import HTTPServer
import RecentsAuth
import Synchronization
import SystemSupport

/// The event-stream protocol of `GET …/events`: the transition to the current view, then one
/// per change of the view, coalescing instead of queueing.
///
/// A stream is an `EventStream` record in `EventStreamHub` and an `HTTPStream` in the server, no
/// thread. A commit claims the list's free streams that are behind, groups them by (version,
/// view), computes each group's transition once and writes the same bytes to each. A busy stream
/// is skipped; when its chunk drains it compares its version with the head and, if the list
/// moved, computes one transition to the current version. Each stream's end of life is an entry
/// in the same `DeadlineTimer` as the long-polls'; heartbeats are one sweep over every stream each
/// `heartbeat`, not a timer per stream. A stream's first event carries `retry:` (SSE's
/// reconnection time) with jitter, so that after a restart thousands of clients come back spread
/// out instead of all at once.
///
/// A stream rides a database outage through (issue 24; a browser's `EventSource` stops for good
/// on a non-200 answer, WHATWG HTML §9.2): when a computation finds the database away
/// (`StoreRetry.isWaitable`), the stream stays open with its heartbeats, one opened meanwhile
/// starts (200) without its first event, and all such streams compute again every 100-250 ms
/// (`StoreRetry`) until they can read; a commit or the store's re-check of watched lists after
/// it reconnects claims them sooner.
final class EventStreams: Sendable {
    /// The kernel send buffer of a stream's socket (`SO_SNDBUF`; Linux keeps twice this).
    ///
    /// Every event the kernel holds for a reader that stopped is one the server can no longer
    /// coalesce, and loopback autotunes the buffer to megabytes: thousands of small events
    /// replayed on resume. 32 KiB still takes a typical event (a few hundred bytes to a few KB)
    /// in one write, a larger one (a first event of hundreds of rows) just drains in several
    /// EPOLLOUT rounds, and 10,000 streams with full buffers hold 625 MiB of kernel memory, not 39 GiB.
    static let sendBuffer = 32 * 1024

    private let reads: ObservedReads
    private let hub = EventStreamHub()
    /// Streams whose computation found the database away, until their retry.
    private let waiting: StoreRetryQueue<EventStream>
    /// Whether the heartbeat sweep is scheduled (it is while any stream is open).
    private let sweeping = Mutex(false)
    private let timer: DeadlineTimer
    private let settings: EventStreamSettings
    /// Tells when a token expires (a stream never outlives its token); nil when auth is off.
    private let verifier: JWTVerifier?
    private let logger: Logger
    /// The room streams and parked long-polls share.
    private let room: LiveRoom

    init(
        reads: ObservedReads, timer: DeadlineTimer, settings: EventStreamSettings, room: LiveRoom,
        verifier: JWTVerifier?, logger: Logger
    ) {
        self.reads = reads
        self.timer = timer
        waiting = StoreRetryQueue(timer: timer)
        self.settings = settings
        self.room = room
        self.verifier = verifier
        self.logger = logger
        room.count { [hub] in hub.count }
    }

    /// Streams open now (for /metrics and tests).
    var count: Int { hub.count }

    /// Open streams with a computation or a chunk in flight (for tests that step the clock only
    /// once every stream is free, so a heartbeat finds it so).
    var busyCount: Int { hub.all().count { $0.isBusy } }

    /// Each list with open streams and the oldest version their clients' views show.
    func watched() -> [String: Int64] { hub.watched() }

    /// Opens a stream: registered before its first computation, so a write landing meanwhile is
    /// seen when the first event has drained (the stream compares its version with the head then).
    func open(_ request: EventsRequest, _ exchange: Exchange) {
        if let refusal = room.refusal() { return exchange.fail(refusal) }
        let stream = EventStream(id: hub.makeId(), request: request, exchange: exchange)
        guard hub.add(stream, maximumPerList: room.streamsPerList) else {
            return exchange.fail(.listFull(stream.list, kind: "event streams", cap: room.streamsPerList))
        }
        exchange.responder.onCancel { self.end(stream, .clientGone) }
        refresh([stream])
    }

    /// Tells the streams of each committed list; those free and behind compute their next event.
    func refresh(_ versions: [String: Int64]) {
        for (list, version) in versions {
            let claimed = hub.streams(of: list).filter { $0.claim(head: version) }
            if !claimed.isEmpty { refresh(claimed) }
        }
    }

    /// Computes the next event of claimed streams once per distinct (version, view) and sends
    /// the same bytes to each; a stream whose view did not change sends nothing and moves on
    /// (unless it asked for every version: `includeEmpty`).
    private func refresh(_ streams: [EventStream]) {
        let epoch = reads.store.epoch
        for (next, group) in Dictionary(grouping: streams, by: \.next) {
            let query = next.query
            reads.transition(query) { result in
                switch result {
                case .success(let answer):
                    var frame: [UInt8] = []
                    for stream in group {
                        let isFirst = !stream.hasSentFirstEvent
                        // A stream that asked for every version still sends nothing when none is new.
                        let wanted = isFirst || (stream.includeEmpty && answer.to != next.delivered)
                        if answer.isEmpty && !wanted {
                            stream.advance(to: answer.to, delivered: false)
                            self.settle(stream)
                            continue
                        }
                        if frame.isEmpty {
                            let body = ResponseBodies.transition(
                                list: query.list, from: next.delivered, answer: answer, epoch: epoch)
                            frame = EventFrame.transition(epoch: epoch, version: answer.to, body: body)
                        }
                        self.send(frame, to: answer.to, on: stream, isFirst: isFirst)
                    }
                case .failure(let error):
                    for stream in group { self.fail(stream, error) }
                }
            }
        }
    }

    /// Writes an event to a claimed stream (starting the answer with the first one, which also
    /// carries `retry:`).
    private func send(_ frame: [UInt8], to version: Int64, on stream: EventStream, isFirst: Bool) {
        // Each stream its own reconnection time: the first event is rarely shared anyway.
        let bytes = isFirst ? EventFrame.retry(milliseconds: reconnectMilliseconds()) + frame : frame
        guard let http = stream.http ?? start(stream) else { return }
        guard http.write(bytes) else { return end(stream, .clientGone) }
        stream.advance(to: version, delivered: true)
        if stream.isHead { return end(stream, .finished) }
        http.onWritable { self.settle(stream) }
    }

    /// A client's wait before it reconnects (`retry:`): the setting plus up to its jitter, at random.
    private func reconnectMilliseconds() -> Int64 {
        let base = Int64(SystemClock.nanoseconds(settings.reconnect) / 1_000_000)
        let jitter = Int64(SystemClock.nanoseconds(settings.reconnectJitter) / 1_000_000)
        return base + Int64.random(in: 0...max(0, jitter))
    }

    /// A claimed stream whose chunk drained (or whose view did not change): free it, or compute
    /// again at once when the list moved on meanwhile.
    private func settle(_ stream: EventStream) {
        if stream.release(heads: reads.heads) { refresh([stream]) }
    }

    /// Sends the answer's head through the outbound middleware and arms the stream's timers.
    private func start(_ stream: EventStream) -> HTTPStream? {
        guard let exchange = stream.exchange else { return nil }
        var head = HTTPResponse(status: 200)
        head.headers.add("Content-Type", "text/event-stream")
        head.headers.add("Cache-Control", "no-store")
        exchange.pipeline.outbound(&head, for: exchange)
        let http = exchange.responder.startStream(
            status: head.status, headers: head.headers, sendBuffer: Self.sendBuffer)
        guard stream.attach(http) else {
            http.finish()
            return nil
        }
        http.onCancel { self.end(stream, .clientGone) }
        http.onShutdown { self.end(stream, .shutdown) }
        let jitter = Int64.random(in: 0...max(0, Int64(SystemClock.nanoseconds(settings.maxAge) / 5)))
        let lifetime = TokenLifetime(settings.maxAge + .nanoseconds(jitter), for: exchange, verifier: verifier)
        let token: UInt64
        if lifetime.endsByExpiry {
            // A token let in by the clock skew after its `exp` allows no event: the stream ends
            // at once, saying why (its first event would race the end otherwise).
            guard lifetime.duration > .zero else {
                end(stream, .tokenExpired)
                return nil
            }
            // The stream ends with its token, never later, and says why in a last event.
            token = timer.schedule(after: lifetime.duration) { self.end(stream, .tokenExpired) }
        } else {
            token = timer.schedule(after: lifetime.duration) { self.end(stream, .maxAge) }
        }
        if !stream.keep(maxAge: token) { timer.cancel(token) }
        scheduleSweep()
        return http
    }

    /// Schedules the heartbeat sweep unless it is.
    private func scheduleSweep() {
        let schedule = sweeping.withLock { scheduled in
            defer { scheduled = true }
            return !scheduled
        }
        if schedule { timer.schedule(after: settings.heartbeat) { self.sweep() } }
    }

    /// Sends a keep-alive comment on every free stream (a busy one is sending anyway), then
    /// schedules the next sweep while any stream is open.
    private func sweep() {
        for stream in hub.all() {
            guard let http = stream.claimForHeartbeat() else { continue }
            guard http.write(EventFrame.keepAlive) else {
                end(stream, .clientGone)
                continue
            }
            http.onWritable { self.settle(stream) }
        }
        sweeping.withLock { $0 = false }
        if hub.count > 0 { scheduleSweep() }
    }

    /// A computation failed: with the database away the stream waits for it; otherwise a 410 or
    /// 400 before the stream started; after, a lost version ends the stream with `resync`, and
    /// anything else (logged) just ends it, so the client reconnects.
    private func fail(_ stream: EventStream, _ error: any Error) {
        if StoreRetry.isWaitable(error) { return wait(stream) }
        guard stream.http != nil else {
            let exchange = stream.exchange
            end(stream, .finished)
            return exchange?.fail(error) ?? ()
        }
        if let error = error as? APIError, let currentVersion = error.currentVersion {
            return end(stream, .lostVersion(current: currentVersion))
        }
        logger.error("event stream failed", [("request_id", stream.requestId), ("error", "\(error)")])
        end(stream, .finished)
    }

    /// Keeps a claimed stream open while the database is away: started now if its first event
    /// was due (the client gets its 200 and heartbeats instead of a 503), freed, and computed
    /// again at the next retry.
    private func wait(_ stream: EventStream) {
        guard stream.http != nil || start(stream) != nil else { return }
        stream.pause()
        retryLater(stream)
    }

    /// Puts `stream` among the waiting ones until the next retry.
    private func retryLater(_ stream: EventStream) {
        _ = waiting.add([(stream.id, stream)]) { self.retry($0) }
    }

    /// Computes waiting streams again; one busy now (a heartbeat, a commit's computation) waits
    /// for the next retry, and those that still find the database away come back.
    private func retry(_ streams: [EventStream]) {
        var claimed: [EventStream] = []
        for stream in streams {
            switch stream.claimToRetry() {
            case .compute: claimed.append(stream)
            case .later: retryLater(stream)
            case .drop: break
            }
        }
        if !claimed.isEmpty { refresh(claimed) }
    }

    /// Ends every open stream cleanly (shutdown; the server ends its streams after its shutdown
    /// hooks too, so behind a socket this only comes first; in process it is the only end).
    func close() {
        for stream in hub.all() { end(stream, .shutdown) }
    }

    /// Ends a stream once, as its state machine says: forgets it, cancels its end of life, and
    /// ends a started answer after the last event `reason` calls for.
    private func end(_ stream: EventStream, _ reason: EventStreamState.EndReason) {
        guard let (end, http) = stream.end(reason) else { return }
        if let token = end.endTimer { timer.cancel(token) }
        hub.remove(stream)
        guard end.started, let http else { return }
        switch end.last {
        case .tokenExpired: _ = http.write(EventFrame.tokenExpired)
        case .resync(let currentVersion): _ = http.write(EventFrame.resync(currentVersion: currentVersion))
        case nil: break
        }
        http.finish()
    }
}
