import Glibc

/// A mutex with a condition variable (POSIX `pthread_mutex_t` + `pthread_cond_t`), shaped like
/// `NSCondition`: lock, wait until signalled (or a monotonic deadline), signal, broadcast.
///
/// The state it protects lives with the caller, who reads and writes it only while locked.
/// Waits are timed against `CLOCK_MONOTONIC`, so a wall-clock step never stretches or cuts them.
///
/// `@unchecked Sendable` is safe: the two pointers are allocated once in `init`, never
/// reassigned and freed only in `deinit` (when no thread can hold a reference), and the pthread
/// objects they point to are made for use from many threads at once.
public final class ThreadCondition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// A fresh, unlocked condition.
    public init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Takes the lock, blocking while another thread holds it.
    public func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock.
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the lock held.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Releases the lock until signalled (or woken spuriously), then takes it again.
    /// Call with the lock held and re-check the awaited state in a loop.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Like `wait()`, but also returns once `SystemClock.monotonicNanoseconds()` reaches
    /// `deadline`; false when it returned because the deadline passed.
    @discardableResult
    public func wait(untilMonotonicNanoseconds deadline: UInt64) -> Bool {
        var time = timespec(
            tv_sec: Int(clamping: deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
    }

    /// Wakes one waiting thread.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
