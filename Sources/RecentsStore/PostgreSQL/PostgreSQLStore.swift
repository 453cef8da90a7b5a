import SystemSupport

/// The PostgreSQL back end: the one place a PostgreSQL store is opened or its database migrated.
public enum PostgreSQLStore {
    /// Whether `location` names a PostgreSQL database (a `postgresql://` or `postgres://` URI)
    /// rather than a SQLite file.
    public static func isPostgreSQL(_ location: String) -> Bool {
        location.hasPrefix("postgresql://") || location.hasPrefix("postgres://")
    }

    /// Connects to the database `configuration.path` names (a PostgreSQL URI), migrating it if
    /// needed, and starts the store's threads.
    /// - Throws: `StoreError.cannotOpen` naming the server and the reason, `StoreError`, or
    ///   `MigrationError` when the database's schema history disagrees with this binary's.
    public static func open(_ configuration: StoreConfiguration, logger: Logger = Logger(level: .warn)) throws
        -> any ListStore
    {
        try PGListStore.open(configuration, logger: logger)
    }

    /// Applies pending migrations, for `recents migrate`; returns what was applied. Like an
    /// instance's start, it renews the epoch of a marked copy (`DatabaseEpoch`).
    public static func migrate(_ configuration: StoreConfiguration) throws -> [AppliedMigration] {
        try opening(configuration.path) {
            let connection = try PGConnection(uri: configuration.path)
            let applied = try PGMigrator().migrate(connection)
            _ = try connection.claimEpoch()
            return applied
        }
    }

    /// Gives the database a new epoch (`recents new-epoch`), for a restore made with PostgreSQL's
    /// tools (`pg_restore`, point-in-time recovery). Every instance must be stopped meanwhile and
    /// started after it: a running one keeps serving the old epoch, and listens on the old channel.
    /// - Throws: `StoreError.cannotOpen` when the server cannot be reached, or the database holds
    ///   no Recents schema.
    public static func renewEpoch(_ configuration: StoreConfiguration) throws -> EpochRenewal {
        try opening(configuration.path) {
            let connection = try PGConnection(uri: configuration.path)
            guard try connection.query("SELECT to_regclass('meta') IS NOT NULL").bool(0, 0) else {
                throw StoreError.cannotOpen(
                    "\(redacted(configuration.path)) holds no Recents database (no meta table); check the URI")
            }
            return try connection.renewEpoch()
        }
    }

    /// Runs the steps that open the database at `uri`, so every PostgreSQL failure among them
    /// leaves as a sentence an operator can act on (the URI without its password).
    static func opening<R>(_ uri: String, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as PGError {
            throw StoreError.cannotOpen("cannot open \(redacted(uri)): \(error.description)")
        }
    }

    /// `uri` with any password replaced by `***`, for logs and errors.
    static func redacted(_ uri: String) -> String {
        let characters = Array(uri)
        guard
            let slash = (0..<max(0, characters.count - 2)).first(where: { characters[$0...$0 + 2] == [":", "/", "/"] })
        else { return uri }
        let afterScheme = uri.index(uri.startIndex, offsetBy: slash + 3)
        guard let at = uri[afterScheme...].firstIndex(of: "@") else { return uri }
        let userInfo = uri[afterScheme..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return uri }
        return String(uri[..<colon]) + ":***" + String(uri[at...])
    }
}
