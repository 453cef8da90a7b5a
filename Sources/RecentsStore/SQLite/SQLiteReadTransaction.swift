import RecentsCore

/// The SQLite `StoreReader`: one deferred transaction, so one WAL snapshot.
///
/// Valid only inside the body it was passed to, on the thread running that body; not Sendable.
class SQLiteReadTransaction: StoreTransaction<SQLiteConnection>, ListRowReader {
    typealias Cursor = CallCursor

    /// Cursors still open, held weakly: an abandoned cursor gives its statement back at once
    /// (its deinit), the rest are closed when the transaction ends.
    private var cursors: [WeakCursor] = []

    func listRow(_ list: String) throws -> ListRow? {
        try checkActive()
        if let known = listRows[list] { return known }
        let row: ListRow? = try connection.with(
            """
            SELECT id, version, forgotten_below, pruned_below, editing, revealed_row_id, call_count, seen_through,
                purge_below, unseen_missed, cleared_below
            FROM lists WHERE name = ?
            """, list
        ) { statement in
            guard try statement.step() else { return nil }
            return ListRow(
                id: statement.int64(0), version: statement.int64(1), forgottenBelow: statement.int64(2),
                prunedBelow: statement.int64(3),
                state: ListState(
                    editing: statement.bool(4), revealedRowId: statement.optionalString(5),
                    seenThrough: statement.int64(7)),
                callCount: statement.int(6), purgeBelow: statement.int64(8), unseenMissed: statement.int(9),
                clearedBelow: statement.int64(10))
        }
        if let row { listRows[list] = row }
        return row
    }

    func guarded<R>(_ body: () throws -> R) throws -> R { try SQLiteError.mapped(body) }

    func liveCall(_ id: String, in row: ListRow) throws -> Call? {
        try connection.with(
            """
            SELECT \(CallCursor.columns) FROM calls
            WHERE list_id = ? AND call_id = ? AND deleted_version IS NULL AND created_version >= ?
            """, row.id, id, row.liveFloor
        ) { statement in
            try statement.step() ? try CallCursor.decode(statement) : nil
        }
    }

    func storedVersion(listId: Int64, at version: Int64) throws -> VersionRow? {
        try connection.with(
            """
            SELECT editing, revealed_row_id, seen_through, unseen_missed FROM list_versions
            WHERE list_id = ? AND version <= ? ORDER BY version DESC LIMIT 1
            """, listId, version
        ) { statement in
            try statement.step()
                ? VersionRow(
                    state: ListState(
                        editing: statement.bool(0), revealedRowId: statement.optionalString(1),
                        seenThrough: statement.int64(2)),
                    unseenMissed: statement.isNull(3) ? nil : statement.int(3)) : nil
        }
    }

    func storedClear(listId: Int64, at version: Int64) throws -> Int64 {
        try connection.with(
            "SELECT coalesce(max(version), 0) FROM list_clears WHERE list_id = ? AND version <= ?", listId, version
        ) { try $0.step() ? $0.int64(0) : 0 }
    }

    /// Read one row at a time from the `calls_view` index; the cursor is closed with the transaction.
    func cursor(_ row: ListRow, version: Int64, floor: Int64, filter: CallFilter) throws -> CallCursor {
        let statement = try connection.statement(filter == .missed ? CallCursor.missedSQL : CallCursor.allSQL)
        let cursor = CallCursor(statement: statement, transaction: self)
        cursors.removeAll { $0.cursor == nil }
        cursors.append(WeakCursor(cursor: cursor))
        try statement.bind(row.id, version, floor)
        return cursor
    }

    func emptyCursor() -> CallCursor { CallCursor(empty: ()) }

    /// One pass over the covering `calls_view` index; each id is built from its column's bytes.
    func liveIds(_ row: ListRow, version: Int64, floor: Int64) throws -> [String] {
        try connection.with(CallCursor.idsSQL, row.id, version, floor) { statement in
            var ids: [String] = []
            // The live count now: exact at the current version, a hint at an older one.
            ids.reserveCapacity(row.callCount)
            while try statement.step() { ids.append(statement.string(0)) }
            return ids
        }
    }

    /// Ends the transaction's validity: closes its cursors (returning their statements).
    override func end() {
        super.end()
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

    /// A weak reference to a cursor, so the transaction does not keep abandoned cursors alive.
    private struct WeakCursor {
        weak var cursor: CallCursor?
    }
}
