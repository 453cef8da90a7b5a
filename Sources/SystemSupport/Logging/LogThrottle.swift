import Synchronization

/// At most one log line a second for a failure that repeats, so an outage (a failover, a full
/// disk) does not flood the log with a line per request: the first of a kind at once, then one a
/// second naming how many were left unsaid. Safe from any thread.
public final class LogThrottle: Sendable {
    private struct State {
        var lastLogged: ContinuousClock.Instant?
        var lastReason = ""
        var unlogged = 0
    }

    private let interval: Duration
    private let state = Mutex(State())

    /// A throttle letting one line of a kind through every `interval`.
    public init(interval: Duration = .seconds(1)) {
        self.interval = interval
    }

    /// Calls `log` with the number of lines held back since the last one, unless a line of the
    /// same `reason` went out less than `interval` ago (then it only counts this one).
    public func note(_ reason: String, now: ContinuousClock.Instant = .now, log: (_ heldBack: Int) -> Void) {
        let heldBack = state.withLock { state -> Int? in
            if reason == state.lastReason, let last = state.lastLogged, now - last < interval {
                state.unlogged += 1
                return nil
            }
            defer {
                state.lastLogged = now
                state.lastReason = reason
                state.unlogged = 0
            }
            return state.unlogged
        }
        if let heldBack { log(heldBack) }
    }
}
