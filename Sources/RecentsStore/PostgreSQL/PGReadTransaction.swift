import RecentsCore

/// The PostgreSQL `StoreReader`: one `REPEATABLE READ READ ONLY` transaction, so one snapshot.
///
/// Valid only inside the body it was passed to, on the thread running that body; not Sendable.
class PGReadTransaction: StoreTransaction<PGConnection>, ListRowReader {
    typealias Cursor = PGCallCursor

    static let listColumns =
        "id, version, forgotten_below, pruned_below, editing, revealed_row_id, call_count, seen_through, purge_below,"
        + " unseen_missed, cleared_below"

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
        return try decodeList(result, row: 0, from: 0)
    }

    /// Row `row` of a result whose columns from `first` on are `listColumns`.
    static func decodeList(_ result: PGResult, row: Int, from first: Int) throws -> ListRow {
        ListRow(
            id: try result.int64(row, first), version: try result.int64(row, first + 1),
            forgottenBelow: try result.int64(row, first + 2), prunedBelow: try result.int64(row, first + 3),
            state: ListState(
                editing: result.bool(row, first + 4), revealedRowId: result.optionalString(row, first + 5),
                seenThrough: try result.int64(row, first + 7)),
            callCount: try result.int(row, first + 6), purgeBelow: try result.int64(row, first + 8),
            unseenMissed: try result.int(row, first + 9), clearedBelow: try result.int64(row, first + 10))
    }

    func liveCall(_ id: String, in row: ListRow) throws -> Call? {
        let result = try connection.query(
            """
            SELECT \(PGCallCursor.columns) FROM calls
            WHERE list_id = $1 AND call_id = $2 AND deleted_version IS NULL AND created_version >= $3
            """, row.id, id, row.liveFloor)
        return result.count > 0 ? try PGCallCursor.decode(result, row: 0) : nil
    }

    func storedVersion(listId: Int64, at version: Int64) throws -> VersionRow? {
        let result = try connection.query(
            """
            SELECT editing, revealed_row_id, seen_through, unseen_missed FROM list_versions
            WHERE list_id = $1 AND version <= $2 ORDER BY version DESC LIMIT 1
            """, listId, version)
        return result.count > 0
            ? VersionRow(
                state: ListState(
                    editing: result.bool(0, 0), revealedRowId: result.optionalString(0, 1),
                    seenThrough: try result.int64(0, 2)),
                unseenMissed: result.isNull(0, 3) ? nil : try result.int(0, 3)) : nil
    }

    func storedClear(listId: Int64, at version: Int64) throws -> Int64 {
        let result = try connection.query(
            "SELECT coalesce(max(version), 0) FROM list_clears WHERE list_id = $1 AND version <= $2", listId, version)
        return result.count > 0 ? try result.int64(0, 0) : 0
    }

    /// Read in growing chunks (keyset pagination), so the newest N calls cost about N entries.
    func cursor(_ row: ListRow, version: Int64, floor: Int64, filter: CallFilter) throws -> PGCallCursor {
        PGCallCursor(row, version: version, floor: floor, filter: filter, transaction: self)
    }

    func emptyCursor() -> PGCallCursor { PGCallCursor(empty: ()) }

    func liveIds(_ row: ListRow, version: Int64, floor: Int64) throws -> [String] {
        try PGCallCursor.ids(row, version: version, floor: floor, on: connection)
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
