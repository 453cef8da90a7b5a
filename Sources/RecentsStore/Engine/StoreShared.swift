import Synchronization
import SystemSupport

/// State shared by the store's threads and its public API.
final class StoreShared: Sendable {
    let retainVersions: Atomic<Int>
    /// Who hears of commits (`ListStore.subscribe`), held weakly.
    let observer = Mutex(WeakCommitObserver())
    let metrics = Mutex(StoreMetrics())
    /// Set by the writer after each batch: degraded on a storage failure, ok after a commit.
    let health = Mutex(StoreHealth.ok)
    /// Where the store's threads say what they saw (lost connections, reconnects, failed batches).
    let logger: Logger

    init(retainVersions: Int, logger: Logger) {
        self.retainVersions = Atomic(retainVersions)
        self.logger = logger
    }

    /// The subscribed observer, if it is still alive.
    var commitObserver: (any CommitObserver)? { observer.withLock { $0.observer } }
}
