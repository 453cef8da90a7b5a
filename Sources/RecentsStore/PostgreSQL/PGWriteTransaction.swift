import Glibc
import RecentsCore

/// The PostgreSQL `StoreWriter`: one write request under its own savepoint of a group-committed
/// batch (`READ COMMITTED`).
///
/// Every list a request looks at is locked first (see `PGBatchLocks`), so two instances writing
/// one list serialise, and the version read under the lock plus one is never given twice and
/// leaves no gap. Valid only inside the write body; not Sendable.
final class PGWriteTransaction: PGReadTransaction, StoreWriter, VersionAssigning {
    var changed: [String: (id: Int64, version: Int64)] = [:]
    var needsPruning: [Int64] = []
    /// Every list this request locked, in the order it did (a retry locks them sorted first).
    private(set) var touched: [String] = []
    /// A deadlock, serialization failure or lost connection met by the body: the batch must be
    /// rolled back as a whole (and retried, unless the connection was lost).
    private(set) var batchFailure: PGError?
    let now = Int64(time(nil))

    /// The locks the batch's transaction holds so far, shared by its requests.
    private let locks: PGBatchLocks

    init(connection: PGConnection, retainVersions: Int, locks: PGBatchLocks) {
        self.locks = locks
        super.init(connection: connection, retainVersions: retainVersions)
    }

    override func listRow(_ list: String) throws -> ListRow? {
        try checkActive()
        if let known = listRows[list] { return known }
        // Noted before locking: a busy lock fails the batch, whose retry must lock this list too.
        touched.append(list)
        let row = try locks.lock(list, on: connection)
        if let row { listRows[list] = row }
        return row
    }

    override func noteFailure(_ error: PGError) {
        if error.isRetryable || error.connectionLost { batchFailure = batchFailure ?? error }
    }

    func insertCalls(_ calls: [Call], into list: String) throws {
        try guarded {
            try checkActive()
            guard !calls.isEmpty else { return }
            let (listId, version) = try newVersion(of: list)
            for call in calls {
                try connection.query(
                    """
                    INSERT INTO calls (list_id, call_id, peer_id, peer_name, direction, end_reason, video, duration,
                                       "timestamp", missed, created_version)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                    """, listId, call.id, call.peer.id, call.peer.name, call.direction.rawValue,
                    call.endReason.rawValue,
                    call.video, call.duration, call.timestamp, call.isMissed, version)
            }
            try connection.query("UPDATE lists SET call_count = call_count + $1 WHERE id = $2", calls.count, listId)
            listRows[list] = nil
        }
    }

    @discardableResult
    func deleteCalls(ids: [String], from list: String) throws -> [String] {
        try guarded {
            try checkActive()
            guard let row = try listRow(list) else { return [] }
            var seen = Set<String>()
            let unique = ids.filter { seen.insert($0).inserted }
            guard !unique.isEmpty else { return [] }
            let found = try connection.query(
                "SELECT call_id FROM calls WHERE list_id = $1 AND call_id = ANY($2::text[]) AND deleted_version IS NULL",
                row.id, unique)
            let live = Set((0..<found.count).map { found.string($0, 0) })
            let deleted = unique.filter(live.contains)
            guard !deleted.isEmpty else { return [] }
            let (listId, version) = try newVersion(of: list)
            try connection.query(
                """
                UPDATE calls SET deleted_version = $1
                WHERE list_id = $2 AND call_id = ANY($3::text[]) AND deleted_version IS NULL
                """, version, listId, deleted)
            try connection.query("UPDATE lists SET call_count = call_count - $1 WHERE id = $2", deleted.count, listId)
            listRows[list] = nil
            return deleted
        }
    }

    func setState(_ state: ListState, of list: String) throws {
        try guarded {
            try checkActive()
            let current = try listRow(list)?.state ?? ListState()
            guard state != current else { return }
            let (listId, version) = try newVersion(of: list)
            try connection.query(
                "UPDATE lists SET editing = $1, revealed_row_id = $2 WHERE id = $3", state.editing, state.revealedRowId,
                listId)
            listRows[list] = nil
            try connection.query(
                """
                INSERT INTO list_versions (list_id, version, editing, revealed_row_id, created_at)
                VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (list_id, version) DO UPDATE SET editing = excluded.editing,
                    revealed_row_id = excluded.revealed_row_id
                """, listId, version, state.editing, state.revealedRowId, now)
        }
    }

    func forgetList(_ list: String) throws {
        try guarded {
            guard try hasAnythingToForget(list) else { return }
            let (listId, version) = try newVersion(of: list)
            try connection.query("DELETE FROM calls WHERE list_id = $1", listId)
            try connection.query("DELETE FROM list_versions WHERE list_id = $1", listId)
            // The stored replies hold call data the forget must not leave behind.
            try connection.query("DELETE FROM idempotency_keys WHERE list = $1", list)
            try connection.query(
                """
                INSERT INTO list_versions (list_id, version, editing, revealed_row_id, created_at)
                VALUES ($1, $2, false, NULL, $3)
                """, listId, version, now)
            try connection.query(
                """
                UPDATE lists SET forgotten_below = $1, editing = false, revealed_row_id = NULL, call_count = 0
                WHERE id = $2
                """, version, listId)
            listRows[list] = nil
        }
    }

    /// Runs under the list's name lock (`PGBatchLocks`), so no other instance creates it meanwhile.
    func insertList(_ list: String) throws -> Int64 {
        let inserted = try connection.query(
            """
            INSERT INTO lists (name, version, forgotten_below, editing, revealed_row_id, call_count)
            VALUES ($1, 0, 0, false, NULL, 0) RETURNING id
            """, list)
        guard inserted.count == 1 else { throw StoreError.corruptRow("lists insert returned no id") }
        let listId = try inserted.int64(0, 0)
        try connection.query(
            """
            INSERT INTO list_versions (list_id, version, editing, revealed_row_id, created_at)
            VALUES ($1, 0, false, NULL, $2)
            """, listId, now)
        return listId
    }

    func setVersion(_ version: Int64, of listId: Int64) throws {
        try connection.query("UPDATE lists SET version = $1 WHERE id = $2", version, listId)
    }
}
