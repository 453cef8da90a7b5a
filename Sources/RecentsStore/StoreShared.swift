import Synchronization

/// State shared by the store's threads and its public API.
final class StoreShared: Sendable {
    let retainVersions: Atomic<Int>
    let onCommit = Mutex<(@Sendable ([String: Int64]) -> Void)?>(nil)
    let metrics = Mutex(StoreMetrics())

    init(retainVersions: Int) {
        self.retainVersions = Atomic(retainVersions)
    }
}
