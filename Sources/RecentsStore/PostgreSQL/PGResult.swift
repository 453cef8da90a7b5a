internal import CLibPQ

/// The rows of one statement's result, read by row and column; freed when released.
///
/// Owned by the thread that ran the statement; not Sendable.
final class PGResult {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { PQclear(handle) }

    /// The number of rows.
    var count: Int { Int(PQntuples(handle)) }

    /// Rows a command affected (`UPDATE`, `DELETE`, `INSERT`), 0 when it reports none.
    var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// Whether the value at (`row`, `column`) is NULL.
    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(handle, Int32(row), Int32(column)) == 1 }

    /// The text of the value at (`row`, `column`) ("" for NULL).
    func string(_ row: Int, _ column: Int) -> String {
        guard let value = PQgetvalue(handle, Int32(row), Int32(column)) else { return "" }
        return String(cString: value)
    }

    /// The text at (`row`, `column`), nil for NULL.
    func optionalString(_ row: Int, _ column: Int) -> String? {
        isNull(row, column) ? nil : string(row, column)
    }

    /// The integer at (`row`, `column`).
    /// - Throws: `StoreError.corruptRow` when the value is not an integer.
    func int64(_ row: Int, _ column: Int) throws -> Int64 {
        guard let value = Int64(string(row, column)) else { throw StoreError.corruptRow("not an integer") }
        return value
    }

    /// The integer at (`row`, `column`) as an `Int`.
    func int(_ row: Int, _ column: Int) throws -> Int { Int(try int64(row, column)) }

    /// The boolean at (`row`, `column`) (PostgreSQL's text form is `t` or `f`).
    func bool(_ row: Int, _ column: Int) -> Bool { string(row, column) == "t" }
}
