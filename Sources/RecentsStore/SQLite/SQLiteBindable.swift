internal import CSQLite

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

extension Array: SQLiteBindable where Element == UInt8 {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        withUnsafeBytes { buffer in
            // A zero-length blob, not NULL, when empty (a nil pointer would bind NULL).
            guard let base = buffer.baseAddress else { return sqlite3_bind_zeroblob(statement, index, 0) }
            return sqlite3_bind_blob(statement, index, base, Int32(buffer.count), sqliteTransient)
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
