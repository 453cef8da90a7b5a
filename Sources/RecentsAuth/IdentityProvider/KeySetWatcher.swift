import SystemSupport

/// A thread that asks an identity provider to look at its key set file every `interval` (a `stat`,
/// and a read only when the stamp changed), so a rotated set is in use within that time.
struct KeySetWatcher: Sendable {
    private let thread: PollingThread

    /// Starts watching; the thread holds the provider weakly, so a forgotten provider ends it too.
    init(provider: IdentityProvider, interval: Duration) {
        // The strong reference ends when the closure returns, before the thread takes its lock
        // again: if it was the last one, the provider's `deinit` stops this watcher, which takes
        // that lock.
        thread = PollingThread(name: "recents-jwks", interval: interval) { [weak provider] in
            guard let provider else { return false }
            provider.reload()
            return true
        }
    }

    /// Ends the thread at once (it may be waiting) and waits for it, unless called from it.
    func stop() { thread.stop() }
}
