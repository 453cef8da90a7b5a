internal import CSQLite

/// One prepared statement, owned by the connection that prepared it and confined to its thread.
///
/// Statements are lent out by `SQLiteConnection.statement(_:)` and returned to its cache by
/// `SQLiteConnection.recycle(_:)`; `bind` resets and clears the previous bindings first, so a
/// cached statement is reused without re-preparing (https://sqlite.org/c3ref/reset.html).
final class Statement {
    let handle: OpaquePointer
    let sql: String
    private unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, sql: String, connection: SQLiteConnection) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement, clears old bindings and binds `values` to parameters 1…n.
    func bind(_ values: any SQLiteBindable...) throws {
        try bind(values)
    }

    /// The one bind routine: resets the statement, clears old bindings and binds `values` to
    /// parameters 1…n.
    func bind(_ values: [any SQLiteBindable]) throws {
        reset()
        for (offset, value) in values.enumerated() {
            let result = value.bind(to: handle, at: Int32(offset + 1))
            if result != SQLITE_OK { throw connection.error(result, sql: sql) }
        }
    }

    /// Resets the statement so it releases its read snapshot, and clears its bindings.
    func reset() {
        // sqlite3_reset returns the error of the last step, already reported; ignore it here.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Steps once: true when a row is available, false when done.
    func step() throws -> Bool {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.error(result, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows (or whose rows are ignored) to completion.
    func run() throws {
        while try step() {}
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    func bool(_ column: Int32) -> Bool { sqlite3_column_int64(handle, column) != 0 }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column as text, decoded by byte length (embedded NULs survive).
    func string(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }

    /// The column as bytes (a blob).
    func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
