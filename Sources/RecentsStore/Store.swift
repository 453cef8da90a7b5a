import SystemSupport

/// The one place a back end is chosen: a PostgreSQL URI selects PostgreSQL, anything else is a
/// SQLite file path.
public enum Store {
    /// Opens the store `configuration.path` names, on the back end it names, or the shards
    /// `configuration.placement` names.
    /// - Throws: like `SQLiteStore.open(_:)`, `PostgreSQLStore.open(_:)` or `ShardedListStore.open`.
    public static func open(_ configuration: StoreConfiguration, logger: Logger = Logger(level: .warn)) throws
        -> any ListStore
    {
        if let placement = configuration.placement {
            return try ShardedListStore.open(placementFile: placement, configuration, logger: logger)
        }
        return PostgreSQLStore.isPostgreSQL(configuration.path)
            ? try PostgreSQLStore.open(configuration, logger: logger)
            : try SQLiteStore.open(configuration, logger: logger)
    }

    /// Whether opening `location` would create the database: a SQLite path with no file yet.
    public static func wouldCreate(_ location: String) -> Bool {
        !PostgreSQLStore.isPostgreSQL(location) && !SQLiteStore.exists(location)
    }

    /// Removes the SQLite database at `location` and its `-wal` and `-shm` files, for a start that
    /// created it and then failed (close the store first). Nothing for PostgreSQL.
    public static func removeCreated(_ location: String) {
        guard !PostgreSQLStore.isPostgreSQL(location) else { return }
        SQLiteStore.remove(location)
    }

    /// `location` as logs and errors may show it: a PostgreSQL URI without its password.
    public static func redacted(_ location: String) -> String {
        PostgreSQLStore.isPostgreSQL(location) ? PostgreSQLStore.redacted(location) : location
    }

    /// Applies pending migrations to the database `configuration.path` names (`recents migrate`).
    public static func migrate(_ configuration: StoreConfiguration) throws -> [AppliedMigration] {
        PostgreSQLStore.isPostgreSQL(configuration.path)
            ? try PostgreSQLStore.migrate(configuration) : try SQLiteStore.migrate(configuration)
    }

    /// Gives the database `configuration.path` names a new epoch (`recents new-epoch`), for a
    /// restore made by other tools than `recents backup`.
    public static func renewEpoch(_ configuration: StoreConfiguration) throws -> EpochRenewal {
        PostgreSQLStore.isPostgreSQL(configuration.path)
            ? try PostgreSQLStore.renewEpoch(configuration) : try SQLiteStore.renewEpoch(configuration)
    }
}
