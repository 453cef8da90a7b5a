import Synchronization

/// A thread that calls `check` every `interval` until `check` returns false or `stop()` is called:
/// how a process follows a file (`WatchedFile`) with one `stat` per interval.
///
/// Polling rather than inotify: it also sees a file replaced through a symlink swap (Kubernetes
/// secret volumes) or on a network file system, and costs one `stat` per interval.
public final class PollingThread: Sendable {
    private let condition = ThreadCondition()
    private let stopped = Atomic<Bool>(false)
    private let thread = Mutex<JoinableThread?>(nil)

    /// Starts the thread. `check` runs outside the thread's lock, so whatever it releases (a
    /// weakly held owner whose `deinit` calls `stop()`) may stop this thread from inside it.
    public init(name: String, interval: Duration, _ check: @escaping @Sendable () -> Bool) {
        let nanoseconds = SystemClock.nanoseconds(interval)
        let started = JoinableThread.start(name: name) { [self] in run(check, every: nanoseconds) }
        thread.withLock { $0 = started }
    }

    private func run(_ check: @Sendable () -> Bool, every nanoseconds: UInt64) {
        condition.lock()
        defer { condition.unlock() }
        while !stopped.load(ordering: .acquiring) {
            condition.wait(untilMonotonicNanoseconds: SystemClock.monotonicNanoseconds() &+ nanoseconds)
            guard !stopped.load(ordering: .acquiring) else { return }
            condition.unlock()
            let alive = check()
            condition.lock()
            if !alive { return }
        }
    }

    /// Ends the thread at once (it may be waiting) and waits for it, unless called from it.
    public func stop() {
        condition.withLock {
            stopped.store(true, ordering: .releasing)
            condition.broadcast()
        }
        thread.withLock { $0 }?.join()
    }
}
