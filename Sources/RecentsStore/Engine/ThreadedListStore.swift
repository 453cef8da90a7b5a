import Synchronization
import SystemSupport

/// The `ListStore` of both back ends: group-committing writer threads on one queue (SQLite one,
/// PostgreSQL `StoreConfiguration.writers`) and a pool of reader threads, each owning its
/// connection, over `Engine`'s transactions (`SQLiteListStore`, `PGListStore`).
///
/// Every engine call runs on the store's own threads (never the Swift cooperative pool or GCD's
/// global queues, which would block or grow under disk or network waits). Completions are called
/// on those threads; keep them short.
final class ThreadedListStore<Engine: StoreEngine>: ListStore {
    /// A random string fixed when the database was created; changes only with a new database.
    let epoch: String

    private let shared: StoreShared
    private let writer: Writer<Engine.Context>
    private let readers: ReaderPool<Engine.ReaderConnection>
    /// Stops the engine's other threads (PostgreSQL's listener), first on close.
    private let stopOthers: @Sendable () -> Void
    private let closed = Mutex(false)

    /// A store over threads already started; `open` of each engine makes them.
    init(
        epoch: String, shared: StoreShared, writer: Writer<Engine.Context>,
        readers: ReaderPool<Engine.ReaderConnection>,
        stopOthers: @escaping @Sendable () -> Void = {}
    ) {
        self.epoch = epoch
        self.shared = shared
        self.writer = writer
        self.readers = readers
        self.stopOthers = stopOthers
    }

    deinit { close() }

    var isShared: Bool { Engine.isShared }

    /// How many versions back each list answers; changing it takes effect for new transactions.
    var retainVersions: Int {
        get { shared.retainVersions.load(ordering: .relaxed) }
        set {
            shared.retainVersions.store(max(0, newValue), ordering: .relaxed)
            // A new window may move horizons of lists not written since: look at every list.
            _ = writer.submit(.task { $0.pruner.scanAll() })
        }
    }

    func subscribe(_ observer: any CommitObserver) {
        shared.observer.withLock { $0 = WeakCommitObserver(observer: observer) }
    }

    /// The writer's counters.
    var metrics: StoreMetrics { shared.metrics.withLock { $0 } }

    /// Whether writes currently reach the storage (the writer updates it after every batch).
    var health: StoreHealth { shared.health.withLock { $0 } }

    /// Runs `body` in a write request, group-committed with concurrent ones; `completion` gets the
    /// value and the new versions only after the commit is durable.
    func write<T: Sendable>(
        _ body: @escaping @Sendable (any StoreWriter) throws -> T,
        completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    ) {
        write(hint: nil, body, completion: completion)
    }

    /// A write whose planned hint is replaced by `hint` (tests pin what a batch locks and fetches).
    func write<T: Sendable>(
        hint: WriteHint?, _ body: @escaping @Sendable (any StoreWriter) throws -> T,
        completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    ) {
        let request = PendingWrite<Engine.WriteTransaction, T>(hint: hint, body: body, completion: completion)
        if !writer.submit(.write(request)) {
            completion(.failure(StoreError.closed))
        }
    }

    /// Runs `body` on a reader thread in one read transaction (one consistent snapshot).
    func read<T: Sendable>(
        _ body: @escaping @Sendable (any StoreReader) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        readTransaction({ transaction in try body(transaction) }, completion: completion)
    }

    /// `read` with the engine's own transaction type (the health check's ping and white-box tests need it).
    func readTransaction<T: Sendable>(
        _ body: @escaping @Sendable (Engine.ReadTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let retain = retainVersions
        let submitted = readers.submit { connection in
            completion(Engine.read(on: connection, retainVersions: retain, body))
        }
        if !submitted { completion(.failure(StoreError.closed)) }
    }

    /// `readTransaction`, awaited.
    func readTransaction<T: Sendable>(_ body: @escaping @Sendable (Engine.ReadTransaction) throws -> T) async throws
        -> T
    {
        try await withCheckedThrowingContinuation { continuation in
            readTransaction(body) { continuation.resume(with: $0) }
        }
    }

    /// Whether a trivial read succeeds; blocks the caller (false at once on a store thread,
    /// where waiting for a reader could deadlock).
    func healthCheck() -> Bool {
        if isStoreThread { return false }
        let done = ThreadLatch()
        let result = Mutex(false)
        readTransaction({ transaction in try Engine.ping(transaction) }) { outcome in
            result.withLock { $0 = (try? outcome.get()) ?? false }
            done.countDown()
        }
        done.wait()
        return result.withLock { $0 }
    }

    /// Prunes every list down to its retention window now (normally done in the background).
    func pruneNow() async throws {
        let succeeded: Bool = try await withCheckedThrowingContinuation { continuation in
            let submitted = writer.submit(
                .task { context in continuation.resume(returning: context.pruner.pruneAll(context.pruningTarget)) })
            if !submitted { continuation.resume(throwing: StoreError.closed) }
        }
        if !succeeded { throw StoreError.pruningFailed }
    }

    /// Runs `task` on the writer thread between batches (tests).
    func onWriter(_ task: @escaping @Sendable (Engine.Context) -> Void) -> Bool {
        writer.submit(.task(task))
    }

    /// Finishes queued work, stops the threads and closes the connections; idempotent.
    func close() {
        let wasClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        stopOthers()
        // Readers first: SQLite's last connection to close checkpoints the WAL into the file and
        // deletes it, but readers ending together each see the others still open and skip it, so
        // a stopped service's database file would lack its latest commits until the next open.
        // The writer, closed alone and last, leaves a complete file.
        readers.close()
        writer.close()
    }
}
