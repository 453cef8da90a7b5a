import Synchronization
import SystemSupport

/// A thread that asks an identity provider to look at its key set file every `interval` (a `stat`,
/// and a read only when the stamp changed), so a rotated set is in use within that time.
///
/// Polling rather than inotify: it also sees a file replaced through a symlink swap (Kubernetes
/// secret volumes) or on a network file system, and costs one `stat` every few seconds.
final class KeySetWatcher: Sendable {
    private let condition = ThreadCondition()
    private let stopped = Atomic<Bool>(false)
    private let thread = Mutex<JoinableThread?>(nil)

    /// Starts watching; the thread holds the provider weakly, so a forgotten provider ends it too.
    init(provider: IdentityProvider, interval: Duration) {
        let nanoseconds = SystemClock.nanoseconds(interval)
        let lookup: @Sendable () -> IdentityProvider? = { [weak provider] in provider }
        let started = JoinableThread.start(name: "recents-jwks") { [self] in run(lookup, every: nanoseconds) }
        thread.withLock { $0 = started }
    }

    private func run(_ provider: @Sendable () -> IdentityProvider?, every nanoseconds: UInt64) {
        condition.lock()
        defer { condition.unlock() }
        while !stopped.load(ordering: .acquiring) {
            condition.wait(untilMonotonicNanoseconds: SystemClock.monotonicNanoseconds() &+ nanoseconds)
            guard !stopped.load(ordering: .acquiring) else { return }
            condition.unlock()
            let alive = Self.check(provider())
            condition.lock()
            if !alive { return }
        }
    }

    /// Reloads `provider` if it still exists. A function of its own so the strong reference ends
    /// before the loop takes the lock again: if it was the last one, the provider's `deinit` stops
    /// this watcher, which takes that lock.
    private static func check(_ provider: IdentityProvider?) -> Bool {
        guard let provider else { return false }
        provider.reload()
        return true
    }

    /// Ends the thread at once (it may be waiting) and waits for it, unless called from it.
    func stop() {
        condition.withLock {
            stopped.store(true, ordering: .releasing)
            condition.broadcast()
        }
        thread.withLock { $0 }?.join()
    }
}
