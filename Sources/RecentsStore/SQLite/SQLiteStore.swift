import Glibc
import SystemSupport

/// The SQLite back end: the one place a SQLite store is opened or its database migrated.
///
/// Everything else of the implementation stays inside this module; callers see `ListStore`.
public enum SQLiteStore {
    /// Opens (creating and migrating if needed) the database at `configuration.path` and starts
    /// the store's threads.
    /// - Throws: `StoreError.cannotOpen` with a sentence naming the path and the reason,
    ///   `StoreError.invalidConfiguration`, or `MigrationError` when the database's schema history
    ///   disagrees with this binary's.
    public static func open(_ configuration: StoreConfiguration, logger: Logger = Logger(level: .warn)) throws
        -> any ListStore
    {
        try SQLiteListStore.open(configuration, logger: logger)
    }

    /// Applies pending migrations to the database at `configuration.path` (creating it if needed),
    /// for `recents migrate`; returns what was applied, empty when it was up to date. Like the
    /// server's first open, it gives a copy made by `backup` its new epoch (`DatabaseEpoch`).
    /// - Throws: like `open(_:)`.
    public static func migrate(_ configuration: StoreConfiguration) throws -> [AppliedMigration] {
        try opening(configuration.path) {
            let connection = try SQLiteConnection(
                path: configuration.path,
                busyTimeoutMilliseconds: Int32(clamping: configuration.busyTimeoutMilliseconds))
            let applied = try Migrator().migrate(connection)
            _ = try connection.claimEpoch()
            return applied
        }
    }

    /// Gives the existing database at `configuration.path` a new epoch (`recents new-epoch`), for
    /// a restore made by copying files: clients then reload instead of trusting versions the
    /// restore took back. Run it with the server stopped (a running one keeps its epoch until it restarts).
    /// - Throws: `StoreError.cannotOpen` when there is no database at the path, or it cannot be opened.
    public static func renewEpoch(_ configuration: StoreConfiguration) throws -> EpochRenewal {
        // Opening a missing path would create an empty database: a typo must not look like success.
        guard exists(configuration.path) else {
            throw StoreError.cannotOpen("no database at \(configuration.path)")
        }
        return try opening(configuration.path) {
            try SQLiteConnection(
                path: configuration.path,
                busyTimeoutMilliseconds: Int32(clamping: configuration.busyTimeoutMilliseconds)
            ).renewEpoch()
        }
    }

    /// Copies the live database at `configuration.path` to the new file `destination` while the
    /// server may be writing (`recents backup`); the copy holds every write committed before the
    /// copy began and opens like any database, under a new epoch (its first open renews it).
    /// - Throws: an error whose description names what went wrong (no source, the destination
    ///   exists, a read or write failure); a half copy is never left under `destination`.
    /// - Parameter progress: hears the bytes copied after each slice, then the check and the sync.
    public static func backup(
        _ configuration: StoreConfiguration, to destination: String, progress: (BackupProgress) -> Void = { _ in }
    ) throws {
        try SQLiteBackup.copy(
            from: configuration.path, to: destination,
            busyTimeoutMilliseconds: Int32(clamping: configuration.busyTimeoutMilliseconds), progress: progress)
    }

    /// Whether a file (of any kind) is at `path`.
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Removes the database at `path` with the `-wal` and `-shm` files SQLite keeps beside it.
    static func remove(_ path: String) {
        for suffix in ["-wal", "-shm", ""] { unlink(path + suffix) }
    }

    /// Runs the steps that open the database at `path`, so every SQLite failure among them leaves
    /// as a sentence an operator can act on.
    static func opening<R>(_ path: String, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw OpenFailure.explain(error, path: path)
        }
    }
}
