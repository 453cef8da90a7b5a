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
    /// for `recents migrate`; returns what was applied, empty when it was up to date.
    /// - Throws: like `open(_:)`.
    public static func migrate(_ configuration: StoreConfiguration) throws -> [AppliedMigration] {
        try opening(configuration.path) {
            let connection = try SQLiteConnection(
                path: configuration.path,
                busyTimeoutMilliseconds: Int32(clamping: configuration.busyTimeoutMilliseconds))
            return try Migrator().migrate(connection)
        }
    }

    /// Copies the live database at `configuration.path` to the new file `destination` while the
    /// server may be writing (`recents backup`); the copy holds every write committed before the
    /// copy began and opens like any database.
    /// - Throws: an error whose description names what went wrong (no source, the destination
    ///   exists, a read or write failure); a half copy is never left under `destination`.
    public static func backup(_ configuration: StoreConfiguration, to destination: String) throws {
        try SQLiteBackup.copy(
            from: configuration.path, to: destination,
            busyTimeoutMilliseconds: Int32(clamping: configuration.busyTimeoutMilliseconds))
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
