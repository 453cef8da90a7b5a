import CSQLite
import Foundation
import RecentsCrypto

/// One forward-only schema migration: a numbered SQL file embedded at build time.
public struct Migration: Sendable, Hashable {
    /// The number at the start of the file name (`0001_…` is 1).
    public var version: Int
    /// The file name, e.g. `0001_initial_schema.sql`.
    public var name: String
    /// The SQL text, run as one script.
    public var sql: String
    /// SHA-256 of the file's bytes, 64 lowercase hex digits.
    public var checksum: String

    /// Creates a migration; the checksum is computed from `sql`'s UTF-8 bytes.
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
        self.checksum = SHA256.hex(Array(sql.utf8))
    }
}

/// A migration applied by one `Migrator.migrate` run.
public struct AppliedMigration: Sendable, Hashable, CustomStringConvertible {
    /// The migration's version number.
    public var version: Int
    /// The migration's file name.
    public var name: String
    /// The SHA-256 recorded for it.
    public var checksum: String

    /// "0001_initial_schema.sql (sha256 …)".
    public var description: String { "\(name) (sha256 \(checksum))" }
}

/// Why a database cannot be opened by this binary's schema history.
public struct MigrationError: Error, CustomStringConvertible, Sendable, Hashable {
    /// A human-readable explanation, naming the migration concerned.
    public var message: String

    /// "cannot open the database: …".
    public var description: String { "cannot open the database: \(message)" }
}

/// Applies the embedded migrations in version order, each in its own `BEGIN IMMEDIATE`
/// transaction together with its `schema_migrations` row, and refuses databases whose history
/// disagrees with the binary's.
///
/// Checksums are SHA-256 of each file's exact bytes (see `SHA256`), recorded as lowercase hex.
public struct Migrator: Sendable {
    /// The migrations embedded in this binary by the EmbedMigrations build plugin.
    public static let embedded: [Migration] = EmbeddedMigrations.files.map {
        Migration(version: $0.version, name: $0.fileName, sql: String(decoding: $0.bytes, as: UTF8.self))
    }

    /// The migrations this migrator knows, in version order.
    public let migrations: [Migration]

    /// A migrator for the embedded migrations.
    public init() { self.init(migrations: Self.embedded) }

    /// A migrator for an explicit list (tests inject extra or altered migrations here).
    init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// Opens the database at `path` (creating it if needed), migrates it and closes it.
    public func migrate(databaseAt path: String, busyTimeoutMilliseconds: Int32 = 5000) throws -> [AppliedMigration] {
        let connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        return try migrate(connection)
    }

    /// Brings `connection`'s database up to date; returns what it applied (empty when current).
    func migrate(_ connection: SQLiteConnection) throws -> [AppliedMigration] {
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                checksum TEXT NOT NULL,
                applied_at TEXT NOT NULL
            ) STRICT
            """)
        try verify(applied(connection))
        var done: [AppliedMigration] = []
        for migration in migrations {
            // BEGIN IMMEDIATE takes the write lock first, so two processes migrating at once
            // serialize here, and the second sees the first's bookkeeping row and skips.
            try connection.execute("BEGIN IMMEDIATE")
            do {
                let isApplied = try connection.with(
                    "SELECT 1 FROM schema_migrations WHERE version = ?", migration.version
                ) { try $0.step() }
                if !isApplied {
                    try connection.execute(migration.sql)
                    try connection.run(
                        "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                        migration.version, migration.name, migration.checksum, Self.timestamp())
                }
                try connection.execute("COMMIT")
                if !isApplied {
                    done.append(
                        AppliedMigration(version: migration.version, name: migration.name, checksum: migration.checksum)
                    )
                }
            } catch {
                // Undo the migration's DDL and its bookkeeping row together.
                if connection.inTransaction { try? connection.execute("ROLLBACK") }
                throw error
            }
        }
        return done
    }

    /// The rows of `schema_migrations`: version → (name, checksum).
    func applied(_ connection: SQLiteConnection) throws -> [Int: (name: String, checksum: String)] {
        try connection.with("SELECT version, name, checksum FROM schema_migrations ORDER BY version") { statement in
            var rows: [Int: (name: String, checksum: String)] = [:]
            while try statement.step() {
                rows[statement.int(0)] = (statement.string(1), statement.string(2))
            }
            return rows
        }
    }

    /// Throws when an applied migration is unknown to this binary or differs from its file.
    func verify(_ applied: [Int: (name: String, checksum: String)]) throws {
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        for (version, row) in applied.sorted(by: { $0.key < $1.key }) {
            guard let migration = known[version] else {
                throw MigrationError(
                    message: "it has migration \(version) (\(row.name)), which this binary does not know; "
                        + "it was migrated by a newer version of recents (this binary knows up to "
                        + "\(migrations.last?.version ?? 0))")
            }
            guard migration.checksum == row.checksum else {
                throw MigrationError(
                    message: "migration \(migration.name) was applied with checksum \(row.checksum), "
                        + "but this binary's file has checksum \(migration.checksum); "
                        + "shipped migrations must never be edited")
            }
        }
    }

    private static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }
}
