import RecentsCore

/// The SQLite `StoreReader`: one deferred transaction, so one WAL snapshot.
///
/// Valid only inside the body it was passed to, on the thread running that body; not Sendable.
class SQLiteReadTransaction: StoreReader {
    let connection: SQLiteConnection
    /// The retention window in force when the transaction started.
    let retainVersions: Int64
    /// Cursors still open, held weakly: an abandoned cursor gives its statement back at once
    /// (its deinit), the rest are closed when the transaction ends.
    private var cursors: [WeakCursor] = []
    /// The first error a cursor met (iterators cannot throw); fails the transaction at its end.
    var deferredError: Error?
    private(set) var isActive = true
    /// `lists` rows already read in this transaction: a read transaction sees one snapshot, and a
    /// write transaction forgets a row whenever it changes it, so a request that looks its list up
    /// three times (info, call lookup, new version) runs the query once.
    var listRows: [String: ListRow] = [:]

    init(connection: SQLiteConnection, retainVersions: Int) {
        self.connection = connection
        self.retainVersions = Int64(max(0, retainVersions))
    }

    /// A list's row in `lists`, if it was ever written.
    struct ListRow {
        var id: Int64
        var version: Int64
        /// The version the last forget created (`lists.forgotten_below`); earlier ones are gone.
        var forgottenBelow: Int64
        var prunedBelow: Int64
        var state: ListState
        var callCount: Int
    }

    func checkActive() throws {
        if !isActive { throw StoreError.transactionEnded }
    }

    func listRow(_ list: String) throws -> ListRow? {
        try checkActive()
        if let known = listRows[list] { return known }
        let row: ListRow? = try connection.with(
            """
            SELECT id, version, forgotten_below, pruned_below, editing, revealed_row_id, call_count
            FROM lists WHERE name = ?
            """, list
        ) { statement in
            guard try statement.step() else { return nil }
            return ListRow(
                id: statement.int64(0), version: statement.int64(1), forgottenBelow: statement.int64(2),
                prunedBelow: statement.int64(3),
                state: ListState(editing: statement.bool(4), revealedRowId: statement.optionalString(5)),
                callCount: statement.int(6))
        }
        if let row { listRows[list] = row }
        return row
    }

    /// The retention rule: `max(forgottenBelow, version - retainVersions)`, and never below what was
    /// pruned (which only bites when the window was widened after pruning).
    func oldestRetained(_ row: ListRow) -> Int64 {
        max(row.forgottenBelow, row.prunedBelow, row.version - retainVersions)
    }

    /// The list's current version, retention window, state and live call count.
    func listInfo(_ list: String) throws -> ListInfo {
        try SQLiteError.mapped {
            guard let row = try listRow(list) else {
                return ListInfo(
                    name: list, version: 0, oldestRetainedVersion: 0, state: ListState(), callCount: 0, exists: false)
            }
            return ListInfo(
                name: list, version: row.version, oldestRetainedVersion: oldestRetained(row), state: row.state,
                callCount: row.callCount, exists: true)
        }
    }

    /// The live call `id` of `list` at its current version, if any.
    func call(_ id: String, in list: String) throws -> Call? {
        try SQLiteError.mapped {
            guard let row = try listRow(list) else { return nil }
            return try connection.with(
                "SELECT \(CallCursor.columns) FROM calls WHERE list_id = ? AND call_id = ? AND deleted_version IS NULL",
                row.id, id
            ) { statement in
                try statement.step() ? try CallCursor.decode(statement) : nil
            }
        }
    }

    /// Whether `version` of `list` is answered: `oldestRetainedVersion ≤ version ≤ current`.
    func isRetained(_ version: Int64, in list: String) throws -> Bool {
        try SQLiteError.mapped {
            guard let row = try listRow(list) else { return version == 0 }
            return version >= oldestRetained(row) && version <= row.version
        }
    }

    /// The state of `list` at `version`; nil when that version is not retained.
    func state(of list: String, at version: Int64) throws -> ListState? {
        try SQLiteError.mapped {
            guard let row = try listRow(list) else { return version == 0 ? ListState() : nil }
            guard version >= oldestRetained(row), version <= row.version else { return nil }
            if version == row.version { return row.state }
            // State rows exist only where the state changed: the newest one at or below `version`.
            return try connection.with(
                """
                SELECT editing, revealed_row_id FROM list_versions WHERE list_id = ? AND version <= ?
                ORDER BY version DESC LIMIT 1
                """, row.id, version
            ) { statement in
                try statement.step()
                    ? ListState(editing: statement.bool(0), revealedRowId: statement.optionalString(1)) : nil
            }
        }
    }

    /// The calls of `list` live at `version` that pass `filter`, newest first (timestamp, then
    /// id, both descending, ids compared byte-wise), read lazily one row at a time.
    ///
    /// Throws `StoreError.versionNotRetained` when `version` is outside the retained window.
    /// The cursor is valid only inside the transaction's body.
    func calls(in list: String, at version: Int64, filter: CallFilter) throws -> CallCursor {
        try SQLiteError.mapped {
            guard let row = try listRow(list) else {
                guard version == 0 else { throw StoreError.versionNotRetained(list: list, version: version) }
                return CallCursor(empty: ())
            }
            guard version >= oldestRetained(row), version <= row.version else {
                throw StoreError.versionNotRetained(list: list, version: version)
            }
            let statement = try connection.statement(filter == .missed ? CallCursor.missedSQL : CallCursor.allSQL)
            let cursor = CallCursor(statement: statement, transaction: self)
            cursors.removeAll { $0.cursor == nil }
            cursors.append(WeakCursor(cursor: cursor))
            try statement.bind(row.id, version)
            return cursor
        }
    }

    /// Ends the transaction's validity: closes its cursors (returning their statements).
    func end() {
        isActive = false
        for entry in cursors { entry.cursor?.finish() }
        cursors.removeAll()
    }

    /// Runs `body` in a deferred read transaction on `connection`: the snapshot is taken at the
    /// first read and held to the end (https://sqlite.org/isolation.html).
    static func perform<T>(
        on connection: SQLiteConnection, retainVersions: Int, _ body: (SQLiteReadTransaction) throws -> T
    ) throws -> T {
        try connection.transaction(.deferred) {
            let transaction = SQLiteReadTransaction(connection: connection, retainVersions: retainVersions)
            return try transaction.finish(Result { try body(transaction) })
        }
    }

    /// Ends the transaction after its body gave `result`: a cursor's deferred error fails a body
    /// that returned.
    func finish<T>(_ result: Result<T, any Error>) throws -> T {
        end()
        let value = try result.get()
        if let deferredError { throw deferredError }
        return value
    }

    /// A weak reference to a cursor, so the transaction does not keep abandoned cursors alive.
    private struct WeakCursor {
        weak var cursor: CallCursor?
    }
}
