import RecentsCore

/// The PostgreSQL `StoreReader`: one `REPEATABLE READ READ ONLY` transaction, so one snapshot.
///
/// Valid only inside the body it was passed to, on the thread running that body; not Sendable.
class PGReadTransaction: StoreReader {
    let connection: PGConnection
    /// The retention window in force when the transaction started.
    let retainVersions: Int64
    /// The first error a cursor met (iterators cannot throw); fails the transaction at its end.
    var deferredError: Error?
    private(set) var isActive = true
    /// `lists` rows already read in this transaction (a write transaction forgets a row whenever
    /// it changes it).
    var listRows: [String: ListRow] = [:]

    init(connection: PGConnection, retainVersions: Int) {
        self.connection = connection
        self.retainVersions = Int64(max(0, retainVersions))
    }

    /// A list's row in `lists`, if it was ever written.
    struct ListRow {
        var id: Int64
        var version: Int64
        var forgottenBelow: Int64
        var prunedBelow: Int64
        var state: ListState
        var callCount: Int
    }

    static let listColumns = "id, version, forgotten_below, pruned_below, editing, revealed_row_id, call_count"

    func checkActive() throws {
        if !isActive { throw StoreError.transactionEnded }
    }

    /// The list's row; a read transaction reads it from its snapshot.
    func listRow(_ list: String) throws -> ListRow? {
        try checkActive()
        if let known = listRows[list] { return known }
        let row = try Self.decodeList(
            connection.query("SELECT \(Self.listColumns) FROM lists WHERE name = $1", list))
        if let row { listRows[list] = row }
        return row
    }

    /// The first row of a result selected with `listColumns`, if any.
    static func decodeList(_ result: PGResult) throws -> ListRow? {
        guard result.count > 0 else { return nil }
        return ListRow(
            id: try result.int64(0, 0), version: try result.int64(0, 1), forgottenBelow: try result.int64(0, 2),
            prunedBelow: try result.int64(0, 3),
            state: ListState(editing: result.bool(0, 4), revealedRowId: result.optionalString(0, 5)),
            callCount: try result.int(0, 6))
    }

    /// The retention rule, as in the SQLite store.
    func oldestRetained(_ row: ListRow) -> Int64 {
        max(row.forgottenBelow, row.prunedBelow, row.version - retainVersions)
    }

    func listInfo(_ list: String) throws -> ListInfo {
        try guarded {
            guard let row = try listRow(list) else {
                return ListInfo(
                    name: list, version: 0, oldestRetainedVersion: 0, state: ListState(), callCount: 0, exists: false)
            }
            return ListInfo(
                name: list, version: row.version, oldestRetainedVersion: oldestRetained(row), state: row.state,
                callCount: row.callCount, exists: true)
        }
    }

    func call(_ id: String, in list: String) throws -> Call? {
        try guarded {
            guard let row = try listRow(list) else { return nil }
            let result = try connection.query(
                "SELECT \(PGCallCursor.columns) FROM calls WHERE list_id = $1 AND call_id = $2 AND deleted_version IS NULL",
                row.id, id)
            return result.count > 0 ? try PGCallCursor.decode(result, row: 0) : nil
        }
    }

    func isRetained(_ version: Int64, in list: String) throws -> Bool {
        try guarded {
            guard let row = try listRow(list) else { return version == 0 }
            return version >= oldestRetained(row) && version <= row.version
        }
    }

    func state(of list: String, at version: Int64) throws -> ListState? {
        try guarded {
            guard let row = try listRow(list) else { return version == 0 ? ListState() : nil }
            guard version >= oldestRetained(row), version <= row.version else { return nil }
            if version == row.version { return row.state }
            let result = try connection.query(
                """
                SELECT editing, revealed_row_id FROM list_versions WHERE list_id = $1 AND version <= $2
                ORDER BY version DESC LIMIT 1
                """, row.id, version)
            return result.count > 0
                ? ListState(editing: result.bool(0, 0), revealedRowId: result.optionalString(0, 1)) : nil
        }
    }

    func calls(in list: String, at version: Int64, filter: CallFilter) throws -> PGCallCursor {
        try guarded {
            guard let row = try listRow(list) else {
                guard version == 0 else { throw StoreError.versionNotRetained(list: list, version: version) }
                return PGCallCursor(empty: ())
            }
            guard version >= oldestRetained(row), version <= row.version else {
                throw StoreError.versionNotRetained(list: list, version: version)
            }
            return PGCallCursor(listId: row.id, version: version, filter: filter, transaction: self)
        }
    }

    /// Runs `body`, throwing its PostgreSQL failures as `StoreError`s (what every reader and
    /// writer method throws); `noteFailure` sees each one first.
    func guarded<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as PGError {
            noteFailure(error)
            throw error.storeError
        }
    }

    /// Called with each PostgreSQL failure of a method (a write transaction remembers those that
    /// doom its batch).
    func noteFailure(_ error: PGError) {}

    /// Ends the transaction's validity (its cursors stop reading).
    func end() { isActive = false }

    /// Ends the transaction after its body gave `result`: a cursor's deferred error fails a body
    /// that returned.
    func finish<T>(_ result: Result<T, any Error>) throws -> T {
        end()
        let value = try result.get()
        if let deferredError { throw deferredError }
        return value
    }

    /// Runs `body` in one read-only snapshot on `connection`.
    static func perform<T>(
        on connection: PGConnection, retainVersions: Int, _ body: (PGReadTransaction) throws -> T
    ) throws -> T {
        try connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
            let transaction = PGReadTransaction(connection: connection, retainVersions: retainVersions)
            return try transaction.finish(Result { try body(transaction) })
        }
    }
}
