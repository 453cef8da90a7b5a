import Synchronization

/// State shared by the store's threads and its public API.
final class StoreShared: Sendable {
    let retainVersions: Atomic<Int>
    let onCommit = Mutex<StoreHook<[String: Int64], Void>?>(nil)
    /// The lists this process watches and the oldest version their watchers saw (read only by a
    /// shared back end's re-check).
    let watchedLists = Mutex<StoreHook<Void, [String: Int64]>?>(nil)
    let metrics = Mutex(StoreMetrics())
    /// Set by the writer after each batch: degraded on a storage failure, ok after a commit.
    let health = Mutex(StoreHealth.ok)

    init(retainVersions: Int) {
        self.retainVersions = Atomic(retainVersions)
    }
}
