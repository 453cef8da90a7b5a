import Synchronization
import SystemSupport

/// The SQLite `ListStore`: versioned lists of calls in one SQLite file, one group-committing
/// writer thread and a pool of reader threads.
///
/// Every SQLite call runs on the store's own threads (never the Swift cooperative pool or GCD's
/// global queues, which would block or grow under disk waits). Completions are called on those
/// threads; keep them short.
final class SQLiteListStore: ListStore {
    /// A random string fixed when the database was created; changes only with a new database.
    let epoch: String
    /// The database file.
    let path: String

    private let shared: StoreShared
    private let writer: Writer
    private let readers: ReaderPool<SQLiteConnection>
    private let closed = Mutex(false)

    private init(
        epoch: String, path: String, shared: StoreShared, writer: Writer, readers: ReaderPool<SQLiteConnection>
    ) {
        self.epoch = epoch
        self.path = path
        self.shared = shared
        self.writer = writer
        self.readers = readers
    }

    deinit { close() }

    /// Opens (creating and migrating if needed) the store at `configuration.path` and starts its threads.
    /// - Throws: `StoreError` (`.cannotOpen` with a sentence for path problems), or `MigrationError`.
    static func open(_ configuration: StoreConfiguration) throws -> SQLiteListStore {
        guard configuration.readers >= 1 else { throw StoreError.invalidConfiguration("readers must be ≥ 1") }
        guard configuration.retainVersions >= 0 else {
            throw StoreError.invalidConfiguration("retainVersions must be ≥ 0")
        }
        let timeout = Int32(clamping: configuration.busyTimeoutMilliseconds)
        let (writeConnection, epoch, readConnections) = try SQLiteStore.opening(configuration.path) {
            let writeConnection = try SQLiteConnection(path: configuration.path, busyTimeoutMilliseconds: timeout)
            _ = try Migrator().migrate(writeConnection)
            let epoch = try loadEpoch(writeConnection)
            let readConnections = try (0..<configuration.readers).map { _ in
                try SQLiteConnection(path: configuration.path, busyTimeoutMilliseconds: timeout, readOnly: true)
            }
            return (writeConnection, epoch, readConnections)
        }
        let shared = StoreShared(retainVersions: configuration.retainVersions)
        return SQLiteListStore(
            epoch: epoch, path: configuration.path, shared: shared,
            writer: Writer(connection: writeConnection, shared: shared, maxBatchSize: configuration.maxBatchSize),
            readers: ReaderPool(connections: readConnections))
    }

    /// Reads the epoch, creating it (8 random lowercase base-36 characters) in a new database.
    private static func loadEpoch(_ connection: SQLiteConnection) throws -> String {
        try connection.transaction(.immediate) {
            let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
            let candidate = String((0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] })
            try connection.run(
                "INSERT INTO meta (key, value) VALUES ('epoch', ?) ON CONFLICT (key) DO NOTHING", candidate)
            guard let epoch = try connection.queryText("SELECT value FROM meta WHERE key = 'epoch'") else {
                throw StoreError.corruptRow("meta.epoch missing")
            }
            return epoch
        }
    }

    /// How many versions back each list answers; changing it takes effect for new transactions.
    var retainVersions: Int {
        get { shared.retainVersions.load(ordering: .relaxed) }
        set {
            shared.retainVersions.store(max(0, newValue), ordering: .relaxed)
            // A new window may move horizons of lists not written since: look at every list.
            _ = writer.submit(.task { $0.pruner.scanAll() })
        }
    }

    /// Called on the writer thread after each durable COMMIT, before that batch's completions,
    /// with the new version of each list the batch changed.
    var onCommit: (@Sendable ([String: Int64]) -> Void)? {
        get { shared.onCommit.withLock { $0 } }
        set { shared.onCommit.withLock { $0 = newValue } }
    }

    /// The writer's counters.
    var metrics: StoreMetrics { shared.metrics.withLock { $0 } }

    /// Whether writes currently reach the disk (the writer updates it after every batch).
    var health: StoreHealth { shared.health.withLock { $0 } }

    /// Runs `body` in a write request, group-committed with concurrent ones; `completion` gets the
    /// value and the new versions only after the commit is durable.
    func write<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteWriteTransaction) throws -> T,
        completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    ) {
        if !writer.submit(.write(PendingWrite(body: body, completion: completion))) {
            completion(.failure(StoreError.closed))
        }
    }

    /// Runs `body` on a reader thread in one read transaction (one consistent snapshot).
    func read<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteReadTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let retain = retainVersions
        let submitted = readers.submit { connection in
            let result = Result { try SQLiteReadTransaction.perform(on: connection, retainVersions: retain, body) }
            completion(result.mapError(SQLiteError.leavingStore))
        }
        if !submitted { completion(.failure(StoreError.closed)) }
    }

    /// Whether a trivial read succeeds; blocks the caller (false at once on a store thread,
    /// where waiting for a reader could deadlock).
    func healthCheck() -> Bool {
        if isStoreThread { return false }
        let done = ThreadLatch()
        let result = Mutex(false)
        read({ transaction in try transaction.connection.queryInt("SELECT 1") == 1 }) { outcome in
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
                .task { context in continuation.resume(returning: context.pruner.pruneAll(context.connection)) })
            if !submitted { continuation.resume(throwing: StoreError.closed) }
        }
        if !succeeded { throw StoreError.pruningFailed }
    }

    /// Runs `task` on the writer thread between batches (tests).
    func onWriter(_ task: @escaping @Sendable (WriterContext) -> Void) -> Bool {
        writer.submit(.task(task))
    }

    /// Finishes queued work, stops the threads and closes the connections; idempotent.
    func close() {
        let wasClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        writer.close()
        readers.close()
    }
}
