internal import CSQLite

/// A failed SQLite call: result codes for callers, the SQL for logs only (inside the SQLite
/// implementation; it leaves the store as a `StoreError`).
///
/// `description` (what an API may show a client) names the result code and SQLite's generic
/// text for it (`sqlite3_errstr`), never the SQL nor any bound value; `logDescription` adds the
/// connection's message and the SQL text for server logs.
struct SQLiteError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, …).
    var code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, …); extended codes are enabled on every connection.
    var extendedCode: Int32
    /// `sqlite3_errmsg` at the time of the failure; may name columns, so keep it to logs.
    var message: String
    /// The statement that failed, if any; for logs only.
    var sql: String?
    /// The `errno` of the operating-system call that failed (`sqlite3_system_errno`), 0 if none;
    /// it tells "no such directory" from "permission denied" when a file cannot be opened.
    var systemErrno: Int32 = 0

    /// Creates an error from its parts.
    init(code: Int32, extendedCode: Int32, message: String, sql: String?) {
        self.code = code
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// Reads the error state of `db` after a call returned `result`.
    init(result: Int32, db: OpaquePointer?, sql: String?) {
        let extended = db.map { sqlite3_extended_errcode($0) } ?? result
        let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? Self.text(of: result)
        // The connection's error state may be stale if the failing call was not on `db`;
        // trust `result` for the primary code.
        self.init(
            code: result & 0xff, extendedCode: (extended & 0xff) == (result & 0xff) ? extended : result,
            message: message, sql: sql)
        systemErrno = db.map { sqlite3_system_errno($0) } ?? 0
    }

    /// A client-safe summary: the result code and its generic meaning, no SQL, no values.
    var description: String {
        "database error \(extendedCode) (\(Self.text(of: extendedCode)))"
    }

    /// Everything, for server logs: code, connection message and SQL.
    var logDescription: String {
        "\(description): \(message)" + (sql.map { " [sql: \($0)]" } ?? "")
    }

    /// Whether a UNIQUE constraint failed (`SQLITE_CONSTRAINT_UNIQUE`, e.g. a live call id inserted twice).
    var isUniqueViolation: Bool { extendedCode == SQLITE_CONSTRAINT | (8 << 8) }

    /// Whether the failure is a busy/locked condition that a retry may resolve.
    var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    private static func text(of code: Int32) -> String {
        sqlite3_errstr(code).map { String(cString: $0) } ?? "unknown error"
    }
}
