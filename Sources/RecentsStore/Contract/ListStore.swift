import RecentsCore

/// A store of versioned call lists: what the API needs of a database, whatever the engine.
///
/// Reads run in one consistent snapshot each; writes run group-committed, and a write's
/// completion is called only once it is durable. Completions may run on the store's own threads:
/// keep them short. Errors a body throws come back unchanged; failures of the store itself are
/// `StoreError`s. Two engines implement it: SQLite (`SQLiteStore`) and PostgreSQL
/// (`PostgreSQLStore`); `Store.open` picks one.
public protocol ListStore: AnyObject, Sendable {
    /// A random string fixed when the database was created; versions compare only within it.
    var epoch: String { get }

    /// How many versions back each list answers; a change applies to new transactions.
    var retainVersions: Int { get set }

    /// Makes `observer` hear of every durable commit (and, on a shared store, answer which lists
    /// it watches), replacing any earlier one; the store holds it weakly.
    func subscribe(_ observer: any CommitObserver)

    /// The writer's counters, for `/metrics`.
    var metrics: StoreMetrics { get }

    /// Whether writes currently reach the disk: `degraded` after a write failed with a storage
    /// error (`StoreError.isStorageUnavailable`), `ok` again once a write commits a change.
    var health: StoreHealth { get }

    /// Whether other processes may write the same database (PostgreSQL): versions this process
    /// saw committed are then no proof of a list's current version, and a cached answer must be
    /// checked against the database first.
    var isShared: Bool { get }

    /// Runs `body` in one read transaction and passes its value (or error) to `completion`.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (any StoreReader) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void)

    /// Runs `body` as one write request; `completion` gets its value and new versions once durable.
    ///
    /// The body may run more than once, so it must have no effect outside its transaction: a
    /// batch runs again after a deadlock, and PostgreSQL plans a batch by running each body once
    /// against a transaction that only records which lists and calls it looks at, so that one
    /// statement can lock them all and another fetch them before the bodies run for real.
    func write<T: Sendable>(
        _ body: @escaping @Sendable (any StoreWriter) throws -> T,
        completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void)

    /// `read` for a body that reads `list` only (or lists placed with it): a sharded store runs it
    /// on `list`'s shard, and fails it with `CrossShardError` if it reads a list placed elsewhere.
    func read<T: Sendable>(
        in list: String, _ body: @escaping @Sendable (any StoreReader) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void)

    /// `write` for a body addressed to `list`: a sharded store runs it on `list`'s shard, and fails
    /// it, writing nothing, with `CrossShardError` if it touches a list placed elsewhere.
    func write<T: Sendable>(
        in list: String, _ body: @escaping @Sendable (any StoreWriter) throws -> T,
        completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void)

    /// `health` after a trivial read of every database: a failure when none answers; a sharded
    /// store whose other shards answer is `degraded`, naming the shards away.
    func probeHealth(completion: @escaping @Sendable (Result<StoreHealth, any Error>) -> Void)

    /// Each shard's name, counters and health, for `/metrics`; empty for a store of one database.
    var shards: [ShardStatus] { get }

    /// Whether the database answers a trivial read; blocks the caller.
    func healthCheck() -> Bool

    /// Removes history outside every list's retention window now (normally done in the background).
    /// - Throws: `StoreError.pruningFailed` when a chunk failed, `.closed` after `close()`.
    func pruneNow() async throws

    /// Finishes queued work and releases the database; idempotent.
    func close()
}

extension ListStore {
    /// One database holds every list: `read`.
    public func read<T: Sendable>(
        in list: String, _ body: @escaping @Sendable (any StoreReader) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        read(body, completion: completion)
    }

    /// One database holds every list: `write`.
    public func write<T: Sendable>(
        in list: String, _ body: @escaping @Sendable (any StoreWriter) throws -> T,
        completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    ) {
        write(body, completion: completion)
    }

    /// The one database's health, once a read of it answered.
    public func probeHealth(completion: @escaping @Sendable (Result<StoreHealth, any Error>) -> Void) {
        read({ tx in try tx.listInfo("healthz").version }) { result in
            completion(result.map { _ in self.health })
        }
    }

    /// One database: no shards.
    public var shards: [ShardStatus] { [] }

    /// Runs `body` in one read transaction and returns its value.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            read(body) { continuation.resume(with: $0) }
        }
    }

    /// Runs `body` as one write request and returns once it is durably committed.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws
        -> WriteOutcome<T>
    {
        try await withCheckedThrowingContinuation { continuation in
            write(body) { continuation.resume(with: $0) }
        }
    }

    /// `read(in:_:completion:)`, awaited.
    public func read<T: Sendable>(in list: String, _ body: @escaping @Sendable (any StoreReader) throws -> T)
        async throws -> T
    {
        try await withCheckedThrowingContinuation { continuation in
            read(in: list, body) { continuation.resume(with: $0) }
        }
    }

    /// `write(in:_:completion:)`, awaited.
    public func write<T: Sendable>(in list: String, _ body: @escaping @Sendable (any StoreWriter) throws -> T)
        async throws -> WriteOutcome<T>
    {
        try await withCheckedThrowingContinuation { continuation in
            write(in: list, body) { continuation.resume(with: $0) }
        }
    }

    /// Whether the database answers a trivial read.
    public func healthCheck() async -> Bool {
        (try? await read { reader in try reader.listInfo("healthz").version }) != nil
    }
}
