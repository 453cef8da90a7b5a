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

extension Migration {
    /// The version a migration file name states (`0001_initial_schema.sql` is 1), or nil when
    /// the name is not four digits from 0001, `_`, a name of letters, digits and `_`, and `.sql`.
    static func version(ofFileName name: String) -> Int? {
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        guard digits.count == 4, let version = Int(digits), version > 0, name.dropFirst(4).hasPrefix("_"),
            name.hasSuffix(".sql"), name.count > 9,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") })
        else { return nil }
        return version
    }
}
