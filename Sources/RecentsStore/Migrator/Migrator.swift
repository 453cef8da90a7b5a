import Glibc

/// Applies the embedded migrations in version order, each in its own `BEGIN IMMEDIATE`
/// transaction together with its `schema_migrations` row, and refuses databases whose history
/// disagrees with the binary's.
///
/// Checksums are SHA-256 of each file's exact bytes (see `SHA256`), recorded as lowercase hex.
struct Migrator: Sendable {
    /// The migrations embedded in this binary by the EmbedFiles build plugin, in version order.
    ///
    /// A file not named `NNNN_name.sql` gets version 0, which no database can hold, so it is
    /// never applied silently (a test checks every embedded file parses).
    /// Files in subfolders belong to other engines (`postgresql/`, see `PGMigrations`).
    static let embedded: [Migration] = EmbeddedMigrations.files.filter { !$0.path.contains("/") }.map {
        Migration(
            version: Migration.version(ofFileName: $0.path) ?? 0, name: $0.path,
            sql: String(decoding: $0.bytes, as: UTF8.self))
    }.sorted { $0.version < $1.version }

    /// The migrations this migrator knows, in version order.
    let migrations: [Migration]

    /// A migrator for the embedded migrations.
    init() { self.init(migrations: Self.embedded) }

    /// A migrator for an explicit list (tests inject extra or altered migrations here).
    init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
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
            // An immediate transaction takes the write lock first, so two processes migrating at
            // once serialize here, and the second sees the first's bookkeeping row and skips. The
            // migration's DDL and its bookkeeping row commit or roll back together.
            let isApplied = try connection.transaction(.immediate) {
                let isApplied = try connection.with(
                    "SELECT 1 FROM schema_migrations WHERE version = ?", migration.version
                ) { try $0.step() }
                if !isApplied {
                    try connection.execute(migration.sql)
                    try connection.run(
                        "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                        migration.version, migration.name, migration.checksum, Self.timestamp())
                }
                return isApplied
            }
            if !isApplied {
                done.append(
                    AppliedMigration(version: migration.version, name: migration.name, checksum: migration.checksum))
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

    /// Now in UTC as ISO 8601 (`2026-12-01T08:46:41Z`), the form `applied_at` has always had.
    static func timestamp(secondsSinceEpoch: Int = time(nil)) -> String {
        var seconds = time_t(secondsSinceEpoch)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return String(secondsSinceEpoch) }
        func digits(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return digits(parts.tm_year + 1900, 4) + "-" + digits(parts.tm_mon + 1, 2) + "-" + digits(parts.tm_mday, 2)
            + "T" + digits(parts.tm_hour, 2) + ":" + digits(parts.tm_min, 2) + ":" + digits(parts.tm_sec, 2) + "Z"
    }
}
