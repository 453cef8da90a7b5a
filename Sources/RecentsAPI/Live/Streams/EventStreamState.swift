import RecentsCore

/// What one event stream is doing, as a value: each event of its life is a `mutating func` that
/// returns what the caller must do, and nothing here writes, reads or schedules anything
/// (postgres-nio's `ConnectionStateMachine` is the model). `EventStream` keeps one behind its lock.
///
/// Coalesce, never queue: the only thing a stream remembers of the list is `base`, the version its
/// client's view shows. While it is busy (a transition is being computed for it, or its last chunk
/// still sits in the socket) a commit changes nothing here; when it is free again it compares
/// `base` with the head and, if the list moved, computes one transition from `base` to whatever is
/// current then.
struct EventStreamState: Sendable, Equatable {
    /// Where the stream is in its life.
    enum Phase: Sendable, Equatable {
        /// A computation or a chunk is in flight; only its owner moves the stream on.
        case busy
        /// Started and idle: a commit, a heartbeat or a retry may claim it.
        case free
        /// Ended for good.
        case closed
    }

    private(set) var phase = Phase.busy
    /// The answer's head went out (with the first event, or while the database is away).
    private(set) var started = false
    /// The version the next transition starts from (nil: nothing yet, the first event is
    /// `initial`). Its view is the client's, though it may be newer than `delivered`: a transition
    /// that would change nothing moves it on silently, so a stream whose view stays still does not
    /// fall out of the retention.
    private(set) var base: Int64?
    /// The version of the last event sent: the `from` of the next one.
    private(set) var delivered: Int64?
    /// The view the client shows at `base` (the request's `from…` view until the first event).
    private(set) var from: ViewParameters
    /// The view every event shows.
    let view: ViewParameters
    /// The first event went out (a stream may start before it: when the database is away).
    private(set) var sentFirstEvent = false
    /// The timer entry of the end of life, cancelled on close.
    private(set) var endTimer: UInt64?

    /// Opened: busy, its opener computes the first event from `since` (the client's view `from`).
    init(since: Int64?, from: ViewParameters, view: ViewParameters) {
        base = since
        delivered = since
        self.from = from
        self.view = view
    }

    /// The version its client's view shows, nil until started or once closed.
    var shownVersion: Int64? { phase == .closed || !started ? nil : base }

    // MARK: - Claims

    /// A commit moved the list to `head`: compute (now busy) if free and behind; otherwise nothing
    /// (a busy stream looks at the head itself when it becomes free, so nothing is missed).
    mutating func committed(head: Int64) -> Bool {
        guard phase == .free, started, head > (base ?? -1) else { return false }
        phase = .busy
        return true
    }

    /// The heartbeat sweep came by: write a keep-alive (now busy) if free; a busy one sends anyway.
    mutating func heartbeatDue() -> Bool {
        guard phase == .free, started else { return false }
        phase = .busy
        return true
    }

    /// What a retry after a database outage does with the stream.
    enum RetryAction: Sendable, Equatable {
        /// Compute its next event now (it is busy).
        case compute
        /// It is busy (a heartbeat, a commit's computation): try at the next retry.
        case later
        /// It closed: forget it.
        case drop
    }

    /// The retry after the database was away came: compute whatever the head.
    mutating func retryDue() -> RetryAction {
        if !started { return .drop }
        switch phase {
        case .closed: return .drop
        case .busy: return .later
        case .free:
            phase = .busy
            return .compute
        }
    }

    // MARK: - What the owner of a busy stream reports

    /// The head went out; false when the stream closed meanwhile (finish the answer just started).
    mutating func didStart() -> Bool {
        guard phase != .closed else { return false }
        started = true
        return true
    }

    /// Its end of life is on the timer as `token`; false when it closed meanwhile (cancel it).
    mutating func armed(endTimer token: UInt64) -> Bool {
        guard phase != .closed else { return false }
        endTimer = token
        return true
    }

    /// An event to `version` was written: the client's view is now the one at `version`.
    mutating func delivered(_ version: Int64) {
        base = version
        from = view
        delivered = version
        sentFirstEvent = true
    }

    /// The transition to `version` changed nothing the client shows: move on without sending.
    mutating func unchanged(_ version: Int64) {
        base = version
        from = view
    }

    /// Its computation found the database away: free until the retry (heartbeats go on, and a
    /// commit may claim it sooner). The caller starts it first if it had not (200, no event yet).
    mutating func databaseAway() {
        if phase == .busy { phase = .free }
    }

    /// Its chunk drained (or its view did not change) with the list at `head`: true when the list
    /// moved past `base` meanwhile, so it stays busy and computes again; otherwise it is free. The
    /// caller reads `head` under the same lock, after the commit hook moved it, so no write is missed.
    mutating func drained(head: Int64) -> Bool {
        guard phase != .closed else { return false }
        if head > (base ?? -1) { return true }
        phase = .free
        return false
    }

    // MARK: - The end

    /// Why a stream ends.
    enum EndReason: Sendable, Equatable {
        /// Its client went away (the connection closed): nothing more can reach it.
        case clientGone
        /// Its max-age (with jitter) ran out: a clean end, the client reconnects.
        case maxAge
        /// Its token's `exp` came: a last `unauthorized` event says why.
        case tokenExpired
        /// Its versions fell out of the retention (or the list was deleted): a last `resync`.
        case lostVersion(current: Int64)
        /// The server stops: a clean end.
        case shutdown
        /// Nothing more to send: a HEAD answered, or a failure the caller logs.
        case finished
    }

    /// The last event of a stream, before its body ends.
    enum LastEvent: Sendable, Equatable {
        case tokenExpired
        case resync(currentVersion: Int64)
    }

    /// What ending does: cancel `endTimer`, and if the answer `started`, write `last` and finish it.
    struct End: Sendable, Equatable {
        var endTimer: UInt64?
        var started: Bool
        var last: LastEvent?
    }

    /// Ends the stream; nil when it had ended already (each stream ends once).
    mutating func end(_ reason: EndReason) -> End? {
        guard phase != .closed else { return nil }
        phase = .closed
        let last: LastEvent? =
            switch reason {
            case .tokenExpired: .tokenExpired
            case .lostVersion(let current): .resync(currentVersion: current)
            case .clientGone, .maxAge, .shutdown, .finished: nil
            }
        return End(endTimer: endTimer, started: started, last: last)
    }
}
