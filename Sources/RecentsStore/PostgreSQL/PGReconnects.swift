import Synchronization
import SystemSupport

/// What the connections of one store (writers, readers, listener) share on their way back to
/// PostgreSQL: when the next reconnect may be tried, and which server the newest one reached.
///
/// While the database is away one connection at a time tries, and after a failed try none tries
/// again for 100-250 ms (random, so that instances do not try in step). So the URI's hosts are
/// probed several times a second and a new primary is found within a fraction of a second of
/// taking writes (issue 24: the blind backoff this replaces, 100 ms doubling to 5 s, added up to
/// 5 s to every failover), while an instance's many connections cost a recovering server one
/// connection attempt per interval, not one each. An attempt is bounded by libpq's
/// `connect_timeout` (`PGConnection.defaultConnectTimeoutSeconds`). Once one succeeds, the other
/// connections reconnect at their next use without waiting.
final class PGReconnects: Sendable {
    /// The wait after a failed try, in milliseconds: one at random in this range.
    static let retryDelayMilliseconds: ClosedRange<Int64> = 100...250

    private struct State {
        /// A connection is trying now.
        var trying = false
        /// No try before this (the last one failed).
        var nextTry: ContinuousClock.Instant?
        /// The server (`host:port`) the newest connection reached.
        var server: String?
    }

    private let state = Mutex(State())
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// A wait in `retryDelayMilliseconds`, at random.
    static func randomDelay() -> Duration { .milliseconds(Int64.random(in: retryDelayMilliseconds)) }

    /// Whether a connection may try now; if so, it is the one trying until it calls `failed` or
    /// `succeeded`.
    func claim(at now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            if state.trying { return false }
            if let nextTry = state.nextTry, now < nextTry { return false }
            state.trying = true
            return true
        }
    }

    /// The try that `claim` allowed failed at `now`: the next waits `delay`.
    func failed(at now: ContinuousClock.Instant, delay: Duration = randomDelay()) {
        state.withLock { state in
            state.trying = false
            state.nextTry = now + delay
        }
    }

    /// The try that `claim` allowed reached `server`: others may try at once. A server other than
    /// the last one is logged: a failover or switchover.
    func succeeded(server: String) { reached(server, endingTheTry: true) }

    /// A connection that followed another one (it was not lost, so it took no turn) reached
    /// `server`: recorded as `succeeded` does, but another connection's try in progress and the
    /// delay after a failed one stay as they are.
    func followed(to server: String) { reached(server, endingTheTry: false) }

    /// Records `server` as current (logging a move), ending the try in progress if `endingTheTry`.
    private func reached(_ server: String, endingTheTry: Bool) {
        let previous = state.withLock { state in
            defer {
                if endingTheTry {
                    state.trying = false
                    state.nextTry = nil
                }
                state.server = server
            }
            return state.server
        }
        if let previous, previous != server {
            logger.warn("PostgreSQL answers from another server now", [("from", previous), ("to", server)])
        }
    }

    /// A connection made when the store opened reached `server` (the first one known is current).
    func opened(on server: String) {
        state.withLock { state in state.server = state.server ?? server }
    }

    /// Whether `server` is the one the newest connection reached (true when none is known): a
    /// connection to another one follows it at its next use, so that no connection keeps
    /// talking to an old primary that another connection of this instance found gone.
    func isCurrent(_ server: String) -> Bool {
        state.withLock { state in state.server.map { $0 == server } ?? true }
    }

    /// How long until a try may be claimed (zero when one may be now).
    func untilNextTry(at now: ContinuousClock.Instant) -> Duration {
        state.withLock { state in
            guard let nextTry = state.nextTry, now < nextTry else { return .zero }
            return nextTry - now
        }
    }
}
