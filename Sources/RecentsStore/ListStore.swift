import RecentsCore

/// A store of versioned call lists: what the API needs of a database, whatever the engine.
///
/// Reads run in one consistent snapshot each; writes run group-committed, and a write's
/// completion is called only once it is durable. Completions may run on the store's own threads:
/// keep them short. Errors a body throws come back unchanged; failures of the store itself are
/// `StoreError`s. SQLite (`SQLiteStore`) is the implementation today.
public protocol ListStore: AnyObject, Sendable {
    /// What a read body is given: the reads of one snapshot.
    associatedtype ReadTransaction: StoreReader
    /// What a write body is given: the mutations of one write request, and reads that see them.
    associatedtype WriteTransaction: StoreWriter

    /// A random string fixed when the database was created; versions compare only within it.
    var epoch: String { get }

    /// How many versions back each list answers; a change applies to new transactions.
    var retainVersions: Int { get set }

    /// Called after each durable commit, before that commit's completions, with the new version of
    /// each list it changed. A shared store (several writer connections, other instances) may tell
    /// a list's versions out of order: keep the larger.
    var onCommit: (@Sendable ([String: Int64]) -> Void)? { get set }

    /// The lists this process watches (parked long-polls, open event streams), each with the
    /// oldest version its watchers have seen. A shared store (`isShared`) looks them up in the
    /// database at least every 5 seconds, and whenever its notifications may have been lost, and
    /// calls `onCommit` for each that moved past it: a lost notification delays a wake-up and
    /// never loses it. Called on a store thread; keep it short. Other stores never call it.
    var watchedLists: (@Sendable () -> [String: Int64])? { get set }

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
        _ body: @escaping @Sendable (ReadTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void)

    /// Runs `body` as one write request; `completion` gets its value and new versions once durable.
    /// `hint` says what the body will look at (see `WriteHint`).
    func write<T: Sendable>(
        hint: WriteHint, _ body: @escaping @Sendable (WriteTransaction) throws -> T,
        completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void)

    /// Whether the database answers a trivial read; blocks the caller.
    func healthCheck() -> Bool

    /// Removes history outside every list's retention window now (normally done in the background).
    /// - Throws: `StoreError.pruningFailed` when a chunk failed, `.closed` after `close()`.
    func pruneNow() async throws

    /// Finishes queued work and releases the database; idempotent.
    func close()
}

extension ListStore {
    /// Runs `body` as one write request, with no hint.
    public func write<T: Sendable>(
        _ body: @escaping @Sendable (WriteTransaction) throws -> T,
        completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    ) {
        write(hint: WriteHint(), body, completion: completion)
    }

    /// One process owns the database unless a back end says otherwise.
    public var isShared: Bool { false }

    /// Runs `body` in one read transaction and returns its value.
    public func read<T: Sendable>(_ body: @escaping @Sendable (ReadTransaction) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            read(body) { continuation.resume(with: $0) }
        }
    }

    /// Runs `body` as one write request and returns once it is durably committed.
    public func write<T: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> T) async throws
        -> WriteOutcome<T>
    {
        try await withCheckedThrowingContinuation { continuation in
            write(body) { continuation.resume(with: $0) }
        }
    }

    /// Whether the database answers a trivial read.
    public func healthCheck() async -> Bool {
        (try? await read { reader in try reader.listInfo("healthz").version }) != nil
    }
}
