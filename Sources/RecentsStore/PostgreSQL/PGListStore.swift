import Synchronization
import SystemSupport

/// The PostgreSQL `ListStore`: the same lists in a PostgreSQL database that any number of
/// instances share, one group-committing writer thread, a pool of reader threads and one
/// listener thread for other instances' commits, each thread with its own connection.
///
/// libpq calls block, so they run only on the store's own threads; completions are called there.
final class PGListStore: ListStore {
    /// The database's epoch, stored in it, so every instance on it answers the same.
    let epoch: String

    private let shared: StoreShared
    private let writer: PGWriter
    private let readers: ReaderPool<PGLink>
    private let listener: PGListener
    private let closed = Mutex(false)

    private init(
        epoch: String, shared: StoreShared, writer: PGWriter, readers: ReaderPool<PGLink>, listener: PGListener
    ) {
        self.listener = listener
        self.epoch = epoch
        self.shared = shared
        self.writer = writer
        self.readers = readers
    }

    deinit { close() }

    /// Connects to `configuration.path` (a PostgreSQL URI), migrates the database and starts the
    /// store's threads.
    /// - Throws: `StoreError` (`.cannotOpen` when the server cannot be reached), or `MigrationError`.
    static func open(_ configuration: StoreConfiguration, migrator: PGMigrator = PGMigrator()) throws -> PGListStore {
        guard configuration.readers >= 1 else { throw StoreError.invalidConfiguration("readers must be ≥ 1") }
        guard configuration.retainVersions >= 0 else {
            throw StoreError.invalidConfiguration("retainVersions must be ≥ 0")
        }
        let (writeConnection, epoch, readConnections, listenConnection) = try PostgreSQLStore.opening(
            configuration.path
        ) {
            let writeConnection = try PGConnection(uri: configuration.path)
            _ = try migrator.migrate(writeConnection)
            let epoch = try loadEpoch(writeConnection)
            let readConnections = try (0..<configuration.readers).map { _ in
                PGLink(try PGConnection(uri: configuration.path))
            }
            return (writeConnection, epoch, readConnections, try PGConnection(uri: configuration.path))
        }
        let shared = StoreShared(retainVersions: configuration.retainVersions)
        let instance = PGInstance(epoch: epoch)
        return PGListStore(
            epoch: epoch, shared: shared,
            writer: PGWriter(
                connection: writeConnection, shared: shared, instance: instance,
                maxBatchSize: configuration.maxBatchSize),
            readers: ReaderPool(connections: readConnections, name: "recents-pgread"),
            listener: PGListener(connection: listenConnection, shared: shared, instance: instance))
    }

    /// Reads the epoch, creating it (8 random lowercase base-36 characters) in a new database;
    /// the first instance to commit one wins and every other reads it.
    private static func loadEpoch(_ connection: PGConnection) throws -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        let candidate = String((0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] })
        try connection.query(
            "INSERT INTO meta (key, value) VALUES ('epoch', $1) ON CONFLICT (key) DO NOTHING", candidate)
        let result = try connection.query("SELECT value FROM meta WHERE key = 'epoch'")
        guard result.count == 1 else { throw StoreError.corruptRow("meta.epoch missing") }
        return result.string(0, 0)
    }

    var retainVersions: Int {
        get { shared.retainVersions.load(ordering: .relaxed) }
        set {
            shared.retainVersions.store(max(0, newValue), ordering: .relaxed)
            _ = writer.submit(.task { $0.pruner.scanAll() })
        }
    }

    var onCommit: (@Sendable ([String: Int64]) -> Void)? {
        get { shared.onCommit.withLock { $0 } }
        set { shared.onCommit.withLock { $0 = newValue } }
    }

    var metrics: StoreMetrics { shared.metrics.withLock { $0 } }

    /// Every instance on the database writes it.
    var isShared: Bool { true }

    /// `degraded` after a batch failed because PostgreSQL was out of reach or refused to store,
    /// `ok` again once a batch commits a change.
    var health: StoreHealth { shared.health.withLock { $0 } }

    func write<T: Sendable>(
        _ body: @escaping @Sendable (PGWriteTransaction) throws -> T,
        completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    ) {
        if !writer.submit(.write(PendingWrite(body: body, completion: completion))) {
            completion(.failure(StoreError.closed))
        }
    }

    func read<T: Sendable>(
        _ body: @escaping @Sendable (PGReadTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let retain = retainVersions
        let submitted = readers.submit { link in
            let result = Result {
                do {
                    return try PGReadTransaction.perform(on: try link.usable(), retainVersions: retain, body)
                } catch let error as PGError where error.connectionLost {
                    // A connection that broke while idle fails its first use; reads are safe to
                    // run again, once, on a fresh one.
                    return try PGReadTransaction.perform(on: try link.usable(), retainVersions: retain, body)
                }
            }
            completion(result.mapError(PGError.leavingStore))
        }
        if !submitted { completion(.failure(StoreError.closed)) }
    }

    /// Whether a trivial read succeeds; blocks the caller (false at once on a store thread).
    func healthCheck() -> Bool {
        if isStoreThread { return false }
        let done = ThreadLatch()
        let result = Mutex(false)
        read({ transaction in try transaction.connection.query("SELECT 1").string(0, 0) == "1" }) { outcome in
            result.withLock { $0 = (try? outcome.get()) ?? false }
            done.countDown()
        }
        done.wait()
        return result.withLock { $0 }
    }

    func pruneNow() async throws {
        let succeeded: Bool = try await withCheckedThrowingContinuation { continuation in
            let submitted = writer.submit(
                .task { context in continuation.resume(returning: context.pruner.pruneAll(context.link)) })
            if !submitted { continuation.resume(throwing: StoreError.closed) }
        }
        if !succeeded { throw StoreError.pruningFailed }
    }

    /// Runs `task` on the writer thread between batches (tests).
    func onWriter(_ task: @escaping @Sendable (PGWriterContext) -> Void) -> Bool {
        writer.submit(.task(task))
    }

    func close() {
        let wasClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        listener.stop()
        writer.close()
        readers.close()
    }
}
