import CSQLite

/// `SQLITE_TRANSIENT`: SQLite copies bound text before `sqlite3_bind_text` returns
/// (https://sqlite.org/c3ref/bind_blob.html), so Swift's temporary buffer may go away.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A value that can be bound to a statement parameter.
protocol SQLiteBindable {
    /// Binds `self` to parameter `index` (1-based) of `statement`.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}

extension Int64: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, self) }
}

extension Int: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
}

extension Bool: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self ? 1 : 0)
    }
}

extension String: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        // Bind by explicit byte length, not as a C string, so an embedded NUL cannot truncate.
        var text = self
        return text.withUTF8 { buffer in
            guard let base = buffer.baseAddress else {
                return sqlite3_bind_text(statement, index, "", 0, sqliteTransient)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                sqlite3_bind_text(statement, index, $0, Int32(buffer.count), sqliteTransient)
            }
        }
    }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .some(let value): value.bind(to: statement, at: index)
        case .none: sqlite3_bind_null(statement, index)
        }
    }
}

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
}
