import Synchronization
import SystemSupport

/// The time live updates' deadlines are read on: the system's monotonic clock in production, or a
/// `ManualClock` a test advances (as `RateLimitSettings.clock` lets tests step the rate limiter),
/// so heartbeats, max-age ends and long-poll waits are tested without waiting for them.
struct LiveClock: Sendable {
    /// Nil: the system's monotonic clock (the only cost on the hot path is this nil check).
    let manual: ManualClock?

    /// `CLOCK_MONOTONIC`.
    static let system = LiveClock(manual: nil)

    /// Time that moves only when `clock` is advanced.
    static func manual(_ clock: ManualClock) -> LiveClock { LiveClock(manual: clock) }

    /// Monotonic nanoseconds now.
    var now: UInt64 { manual?.now ?? SystemClock.monotonicNanoseconds() }

    /// The instant `duration` from now (a negative one is now).
    func after(_ duration: Duration) -> UInt64 {
        let (deadline, overflow) = now.addingReportingOverflow(SystemClock.nanoseconds(duration))
        return overflow ? .max : deadline
    }
}

/// A clock that moves only when a test says so. `advance` runs, on the caller's thread and before
/// it returns, every timer action that fell due, so a test observes their effects without waiting.
final class ManualClock: Sendable {
    private let state: Mutex<(now: UInt64, timers: [@Sendable () -> Void])>

    /// A clock at `start` nanoseconds (not zero, so "now minus a little" stays positive).
    init(start: UInt64 = 1_000_000_000_000) {
        state = Mutex((start, []))
    }

    /// Nanoseconds now.
    var now: UInt64 { state.withLock { $0.now } }

    /// `now` as a function (`RateLimitSettings.clock` reads one).
    var read: @Sendable () -> UInt64 { { self.now } }

    /// Moves time on by `duration` and runs what fell due on every timer reading this clock.
    func advance(by duration: Duration) {
        let timers = state.withLock { state in
            state.now &+= SystemClock.nanoseconds(duration)
            return state.timers
        }
        for runDue in timers { runDue() }
    }

    /// Has `advance` call `runDue` (a `DeadlineTimer` on this clock).
    func attach(_ runDue: @escaping @Sendable () -> Void) {
        state.withLock { $0.timers.append(runDue) }
    }
}
