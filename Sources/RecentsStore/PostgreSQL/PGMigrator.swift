/// Applies the PostgreSQL migrations (`Migrations/postgresql/`) in version order, each in its own
/// transaction with its `schema_migrations` row, and refuses a database whose history disagrees
/// with the binary's (a changed file, or a migration this binary does not know).
///
/// A session advisory lock serialises instances migrating one database at once: the second
/// waits, then finds the first's rows and applies nothing.
struct PGMigrator: Sendable {
    /// The lock key of migrations (an arbitrary constant, the same in every instance).
    static let lockKey: Int64 = 0x7265_6365_6e74_7301

    /// The migrations this migrator knows, in version order.
    let migrations: [Migration]

    /// A migrator for the embedded PostgreSQL migrations.
    init() { self.init(migrations: PGMigrations.embedded) }

    /// A migrator for an explicit list (tests).
    init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// Brings the database up to date; returns what it applied (empty when current).
    /// - Throws: `MigrationError` for a disagreeing history, `PGError` for the server's failures.
    func migrate(_ connection: PGConnection) throws -> [AppliedMigration] {
        guard !migrations.isEmpty else {
            throw MigrationError(message: "this binary embeds no PostgreSQL migrations")
        }
        try connection.query("SELECT pg_advisory_lock($1)", Self.lockKey)
        defer { _ = try? connection.query("SELECT pg_advisory_unlock($1)", Self.lockKey) }
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY,
                name text NOT NULL,
                checksum text NOT NULL,
                applied_at text NOT NULL
            )
            """)
        let applied = try self.applied(connection)
        try Migrator(migrations: migrations).verify(applied)
        var done: [AppliedMigration] = []
        for migration in migrations where applied[migration.version] == nil {
            try connection.transaction {
                try connection.execute(migration.sql)
                try connection.query(
                    "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES ($1, $2, $3, $4)",
                    migration.version, migration.name, migration.checksum, Migrator.timestamp())
            }
            done.append(
                AppliedMigration(version: migration.version, name: migration.name, checksum: migration.checksum))
        }
        return done
    }

    /// The rows of `schema_migrations`: version → (name, checksum).
    func applied(_ connection: PGConnection) throws -> [Int: (name: String, checksum: String)] {
        let result = try connection.query("SELECT version, name, checksum FROM schema_migrations ORDER BY version")
        var rows: [Int: (name: String, checksum: String)] = [:]
        for row in 0..<result.count {
            rows[try result.int(row, 0)] = (result.string(row, 1), result.string(row, 2))
        }
        return rows
    }
}
