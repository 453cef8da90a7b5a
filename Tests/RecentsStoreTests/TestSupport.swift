import Foundation
import RecentsCore
import Synchronization

@testable import RecentsStore

/// A fresh temporary directory, removed after `body`.
func withTemporaryDirectory<R>(_ body: (String) async throws -> R) async throws -> R {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("recents-store-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try await body(directory)
}

/// A store on a fresh temporary file, closed and removed after `body`.
func withStore<R>(retainVersions: Int = 1000, readers: Int = 2, _ body: (SQLiteListStore) async throws -> R)
    async throws -> R
{
    try await withTemporaryDirectory { directory in
        let store = try SQLiteListStore.open(
            StoreConfiguration(path: directory + "/store.sqlite", retainVersions: retainVersions, readers: readers))
        defer { store.close() }
        return try await body(store)
    }
}

/// A call with the fields that matter for ordering and filtering.
func makeCall(_ id: String, timestamp: Int64 = 1_700_000_000, missed: Bool = false, peer: String = "bob") -> Call {
    Call(
        id: id, peer: Peer(id: peer, name: "Peer \(peer)"), direction: missed ? .incoming : .outgoing,
        endReason: missed ? .missed : .hangup, video: false, duration: missed ? 0 : 42, timestamp: timestamp)
}

/// The view order: timestamp descending, then id descending byte-wise.
func viewOrder(_ a: Call, _ b: Call) -> Bool {
    if a.timestamp != b.timestamp { return a.timestamp > b.timestamp }
    return Array(b.id.utf8).lexicographicallyPrecedes(Array(a.id.utf8))
}

/// A thread-safe box for test bookkeeping.
final class Box<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) { storage = Mutex(value) }

    var value: Value { storage.withLock { $0 } }

    func update<R: Sendable>(_ body: (inout Value) -> R) -> R { storage.withLock { body(&$0) } }
}

/// Blocks the writer thread until `release()`; writes queued meanwhile form one batch.
final class WriterGate: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)

    /// Parks the writer of `store` (either back end); returns once it is parked.
    init(_ store: any ListStore) {
        let entered = self.entered
        let gate = self.gate
        let park: @Sendable () -> Void = {
            entered.signal()
            gate.wait()
        }
        if let store = store as? SQLiteListStore {
            _ = store.onWriter { _ in park() }
        } else if let store = store as? PGListStore {
            _ = store.onWriter { _ in park() }
        }
        entered.wait()
    }

    func release() { gate.signal() }
}

/// Runs a blocking wait off the cooperative pool's caller, so async tests stay simple.
func waitBlocking(_ semaphore: DispatchSemaphore, count: Int = 1) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
            for _ in 0..<count { semaphore.wait() }
            continuation.resume()
        }.start()
    }
}

/// Raw SQL for white-box checks, run on a reader connection.
func queryInts(_ store: SQLiteListStore, _ sql: String) async throws -> [Int64] {
    try await store.readTransaction { transaction in
        try transaction.connection.with(sql) { statement in
            var values: [Int64] = []
            while try statement.step() { values.append(statement.int64(0)) }
            return values
        }
    }
}

/// A `CommitObserver` of closures for tests, kept alive for the test process (the store holds
/// its observer weakly).
final class TestObserver: CommitObserver {
    private static let alive = Mutex<[TestObserver]>([])
    private let committed: @Sendable ([String: Int64]) -> Void
    private let watched: @Sendable () -> [String: Int64]

    init(
        committed: @escaping @Sendable ([String: Int64]) -> Void = { _ in },
        watched: @escaping @Sendable () -> [String: Int64] = { [:] }
    ) {
        self.committed = committed
        self.watched = watched
    }

    func storeCommitted(_ versions: [String: Int64]) { committed(versions) }
    func watchedLists() -> [String: Int64] { watched() }

    /// Subscribes a new observer to `store` and keeps it alive.
    @discardableResult
    static func subscribe(
        _ store: any ListStore, committed: @escaping @Sendable ([String: Int64]) -> Void = { _ in },
        watched: @escaping @Sendable () -> [String: Int64] = { [:] }
    ) -> TestObserver {
        let observer = TestObserver(committed: committed, watched: watched)
        alive.withLock { $0.append(observer) }
        store.subscribe(observer)
        return observer
    }
}
