/// A count-down latch: threads `wait()` until `countDown()` has been called `count` times;
/// it stays open afterwards, so later waits return at once.
///
/// Replaces a `DispatchGroup` or a semaphore that is signalled once and waited for by anyone.
///
/// `@unchecked Sendable` is safe: `remaining` is read and written only with `condition` locked.
public final class ThreadLatch: @unchecked Sendable {
    private let condition = ThreadCondition()
    private var remaining: Int

    /// A latch that opens after `count` calls of `countDown()` (at once when `count` ≤ 0).
    public init(count: Int = 1) { remaining = max(0, count) }

    /// Counts one arrival; the last one wakes every waiter. Extra calls do nothing.
    public func countDown() {
        condition.withLock {
            guard remaining > 0 else { return }
            remaining -= 1
            if remaining == 0 { condition.broadcast() }
        }
    }

    /// Whether the latch has opened.
    public var isOpen: Bool { condition.withLock { remaining == 0 } }

    /// Blocks until the latch opens.
    public func wait() {
        condition.withLock {
            while remaining > 0 { condition.wait() }
        }
    }

    /// Blocks until the latch opens or the monotonic clock reaches `deadline`; whether it opened.
    @discardableResult
    public func wait(untilMonotonicNanoseconds deadline: UInt64) -> Bool {
        condition.withLock {
            while remaining > 0 {
                if !condition.wait(untilMonotonicNanoseconds: deadline) { return remaining == 0 }
            }
            return true
        }
    }
}
