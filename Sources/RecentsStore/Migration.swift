import RecentsCrypto

/// One forward-only schema migration: a numbered SQL file embedded at build time.
struct Migration: Sendable, Hashable {
    /// The number at the start of the file name (`0001_…` is 1).
    var version: Int
    /// The file name, e.g. `0001_initial_schema.sql`.
    var name: String
    /// The SQL text, run as one script.
    var sql: String
    /// SHA-256 of the file's bytes, 64 lowercase hex digits.
    var checksum: String

    /// Creates a migration; the checksum is computed from `sql`'s UTF-8 bytes.
    init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
        self.checksum = SHA256.hex(Array(sql.utf8))
    }
}
