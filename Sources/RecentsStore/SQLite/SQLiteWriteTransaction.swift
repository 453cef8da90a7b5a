import Glibc
import RecentsCore

/// The SQLite `StoreWriter`: one write request under its own savepoint of a group-committed batch.
///
/// Valid only inside the write body, on the writer thread; not Sendable.
final class SQLiteWriteTransaction: SQLiteReadTransaction, StoreWriter, VersionAssigning {
    var changed: [String: (id: Int64, version: Int64)] = [:]
    var needsPruning: [Int64] = []
    /// The ids this request inserted, by list row id: a forget later in the request removes them
    /// (they share its version, so its floor does not hide them).
    private var inserted: [Int64: [String]] = [:]
    /// Unix seconds, for `list_versions.created_at`.
    let now = Int64(time(nil))

    /// Adds `calls` to `list` (created at the list's new version).
    ///
    /// The caller guarantees no id is live in the list already (a duplicate fails the request
    /// with `SQLITE_CONSTRAINT_UNIQUE`).
    func insertCalls(_ calls: [Call], into list: String) throws {
        try SQLiteError.mapped {
            try checkActive()
            guard !calls.isEmpty else { return }
            let before = try listRow(list)
            let unseen = UnseenMissed.added(calls, seenThrough: before?.state.seenThrough ?? 0)
            let (listId, version) = try newVersion(of: list)
            if let purgeBelow = before?.purgeBelow, purgeBelow > 0 {
                try dropLeftovers(named: calls, of: listId, below: purgeBelow)
            }
            if let clearedBelow = before?.clearedBelow, clearedBelow > 0 {
                try markCleared(named: calls, of: listId, below: clearedBelow)
            }
            let statement = try connection.statement(
                """
                INSERT INTO calls (list_id, call_id, peer_id, peer_name, direction, end_reason, video, duration,
                                   timestamp, missed, created_version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            defer { connection.recycle(statement) }
            for call in calls {
                try statement.bind(
                    listId, call.id, call.peer.id, call.peer.name, call.direction.rawValue, call.endReason.rawValue,
                    call.video, call.duration, call.timestamp, call.isMissed, version)
                try statement.run()
            }
            inserted[listId, default: []] += calls.lazy.map(\.id)
            try connection.run(
                "UPDATE lists SET call_count = call_count + ?, unseen_missed = unseen_missed + ? WHERE id = ?",
                calls.count, unseen, listId)
            listRows[list] = nil
            if unseen != 0 { try recordVersion(of: list) }
        }
    }

    /// Removes a forget's leftovers that carry one of the ids of `calls`: hidden from reads, they
    /// still hold their ids in the `calls_live_id` unique index until the pruner gets to them.
    private func dropLeftovers(named calls: [Call], of listId: Int64, below purgeBelow: Int64) throws {
        let statement = try connection.statement(
            "DELETE FROM calls WHERE list_id = ? AND call_id = ? AND deleted_version IS NULL AND created_version < ?")
        defer { connection.recycle(statement) }
        for call in calls {
            try statement.bind(listId, call.id, purgeBelow)
            try statement.run()
        }
    }

    /// Marks deleted, at the clear that hid it, a call a clear hid that carries one of the ids of
    /// `calls`: it still holds its id in the `calls_live_id` unique index until the pruner gets to
    /// it, and versions before the clear still show it, so it is marked, never removed.
    private func markCleared(named calls: [Call], of listId: Int64, below clearedBelow: Int64) throws {
        let statement = try connection.statement(
            """
            UPDATE calls SET deleted_version =
                (SELECT min(version) FROM list_clears WHERE list_id = ?1 AND version > calls.created_version)
            WHERE list_id = ?1 AND call_id = ?2 AND deleted_version IS NULL AND created_version < ?3
            """)
        defer { connection.recycle(statement) }
        for call in calls {
            try statement.bind(listId, call.id, clearedBelow)
            try statement.run()
        }
    }

    /// Deletes the live calls among `ids` from `list`; returns the ids that were live and are now
    /// deleted, in the order given (duplicates and absent ids are skipped).
    @discardableResult
    func deleteCalls(ids: [String], from list: String) throws -> [String] {
        try SQLiteError.mapped {
            try checkActive()
            guard let row = try listRow(list) else { return [] }
            var seen = Set<String>()
            var live: [(id: String, rowid: Int64)] = []
            var unseen = 0
            let find = try connection.statement(
                """
                SELECT rowid, missed, timestamp FROM calls
                WHERE list_id = ? AND call_id = ? AND deleted_version IS NULL AND created_version >= ?
                """)
            defer { connection.recycle(find) }
            for id in ids where seen.insert(id).inserted {
                try find.bind(row.id, id, row.liveFloor)
                if try find.step() {
                    live.append((id, find.int64(0)))
                    if find.bool(1), find.int64(2) > row.state.seenThrough { unseen += 1 }
                }
                find.reset()
            }
            guard !live.isEmpty else { return [] }
            let (listId, version) = try newVersion(of: list)
            let mark = try connection.statement("UPDATE calls SET deleted_version = ? WHERE rowid = ?")
            defer { connection.recycle(mark) }
            for call in live {
                try mark.bind(version, call.rowid)
                try mark.run()
            }
            try connection.run(
                "UPDATE lists SET call_count = call_count - ?, unseen_missed = unseen_missed - ? WHERE id = ?",
                live.count, unseen, listId)
            listRows[list] = nil
            if unseen != 0 { try recordVersion(of: list) }
            return live.map(\.id)
        }
    }

    /// Clears `list` in O(1): a new version, `call_count` 0 and a `list_clears` row that hides
    /// every call created below the new version from it on; the pruner marks them deleted later
    /// (`SQLiteConnection.markCleared`). Marking a million calls here held the one writer for seconds.
    func clearCalls(of list: String) throws {
        try SQLiteError.mapped {
            try checkActive()
            guard let row = try listRow(list), row.callCount > 0 else { return }
            let (listId, version) = try newVersion(of: list)
            // Calls this request inserted share the new version, above the floor: marked now.
            let own = try connection.statement(
                """
                UPDATE calls SET deleted_version = ?3
                WHERE list_id = ?1 AND call_id = ?2 AND deleted_version IS NULL AND created_version = ?3
                """)
            defer { connection.recycle(own) }
            for id in inserted.removeValue(forKey: listId) ?? [] {
                try own.bind(listId, id, version)
                try own.run()
            }
            // A second clear in one request shares the version: its row is there already.
            try connection.run(
                "INSERT INTO list_clears (list_id, version) VALUES (?, ?) ON CONFLICT DO NOTHING", listId, version)
            try connection.run(
                "UPDATE lists SET cleared_below = ?1, call_count = 0, unseen_missed = 0 WHERE id = ?2", version, listId)
            listRows[list] = nil
            // The badge drops to 0 with the calls: its version row, as for any change of the count.
            if row.unseenMissed != 0 { try recordVersion(of: list) }
            needsPruning.append(listId)
        }
    }

    /// Sets the state of `list`; nothing happens when it already has this state.
    func setState(_ state: ListState, of list: String) throws {
        try SQLiteError.mapped {
            try checkActive()
            let row = try listRow(list)
            let current = row?.state ?? ListState()
            guard state != current else { return }
            let (listId, _) = try newVersion(of: list)
            var unseen = row?.unseenMissed ?? 0
            if let row, state.seenThrough != current.seenThrough {
                unseen += try missedBetween(row, current.seenThrough, state.seenThrough)
            }
            try connection.run(
                "UPDATE lists SET editing = ?, revealed_row_id = ?, seen_through = ?, unseen_missed = ? WHERE id = ?",
                state.editing, state.revealedRowId, state.seenThrough, unseen, listId
            )
            listRows[list] = nil
            try recordVersion(of: list)
        }
    }

    /// How the badge changes when the seen mark moves from `old` to `new`: minus the live missed
    /// calls the mark passed over (plus, for a mark moved back). One range of the `calls_view`
    /// index, between the two marks, never the whole list.
    private func missedBetween(_ row: ListRow, _ old: Int64, _ new: Int64) throws -> Int {
        let count = try connection.with(
            """
            SELECT count(*) FROM calls INDEXED BY calls_view
            WHERE list_id = ? AND timestamp > ? AND timestamp <= ? AND missed = 1 AND deleted_version IS NULL
                AND created_version >= ?
            """, row.id, min(old, new), max(old, new), row.liveFloor
        ) { statement in try statement.step() ? statement.int(0) : 0 }
        return new > old ? -count : count
    }

    /// Writes the `list_versions` row of `list` at its (new) version with its current state and
    /// badge. A row is written only when one of them changes: the state and badge at V are the
    /// newest row's at or below V. (Rows per version made every call-only write dirty one more page
    /// per list; a missed call above the mark, a delete of one, or a seen mark pays that page.)
    private func recordVersion(of list: String) throws {
        guard let row = try listRow(list) else { return }
        try connection.run(
            """
            INSERT INTO list_versions (list_id, version, editing, revealed_row_id, seen_through, unseen_missed,
                                       created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (list_id, version) DO UPDATE SET editing = excluded.editing,
                revealed_row_id = excluded.revealed_row_id, seen_through = excluded.seen_through,
                unseen_missed = excluded.unseen_missed
            """, row.id, row.version, row.state.editing, row.state.revealedRowId, row.state.seenThrough,
            row.unseenMissed, now)
    }

    /// Forgets `list`: removes its state and history in a new version where it is empty; every
    /// earlier version stops being retained. Its calls stay behind, hidden from every read by the
    /// new forget floor, until the pruner removes them in small chunks (`purge_below`): deleting a
    /// million of them here held the one writer for seconds. Nothing happens when the list is
    /// already empty, in the default state and without history.
    func forgetList(_ list: String) throws {
        try SQLiteError.mapped {
            guard try hasAnythingToForget(list) else { return }
            let (listId, version) = try newVersion(of: list)
            // Calls this request inserted share the new version, above the floor: they go now.
            let own = try connection.statement(
                "DELETE FROM calls WHERE list_id = ? AND call_id = ? AND deleted_version IS NULL AND created_version = ?"
            )
            defer { connection.recycle(own) }
            for id in inserted.removeValue(forKey: listId) ?? [] {
                try own.bind(listId, id, version)
                try own.run()
            }
            try connection.run("DELETE FROM list_versions WHERE list_id = ?", listId)
            // A clear's hidden calls are a forget's leftovers now: the forget floor hides them.
            try connection.run("DELETE FROM list_clears WHERE list_id = ?", listId)
            try connection.run("DELETE FROM idempotency_keys WHERE list = ?", list)
            try connection.run(
                """
                INSERT INTO list_versions (list_id, version, editing, revealed_row_id, unseen_missed, created_at)
                VALUES (?, ?, 0, NULL, 0, ?)
                """, listId, version, now)
            try connection.run(
                """
                UPDATE lists SET forgotten_below = ?1, editing = 0, revealed_row_id = NULL, call_count = 0,
                    seen_through = 0, purge_below = ?1, unseen_missed = 0, cleared_below = 0
                WHERE id = ?2
                """, version, listId)
            listRows[list] = nil
            needsPruning.append(listId)
        }
    }

    func insertList(_ list: String) throws -> Int64 {
        let listId = try connection.with(
            """
            INSERT INTO lists (name, version, forgotten_below, editing, revealed_row_id, call_count)
            VALUES (?, 0, 0, 0, NULL, 0) RETURNING id
            """, list
        ) { statement in
            guard try statement.step() else { throw StoreError.corruptRow("lists insert returned no id") }
            return statement.int64(0)
        }
        try connection.run(
            """
            INSERT INTO list_versions (list_id, version, editing, revealed_row_id, unseen_missed, created_at)
            VALUES (?, 0, 0, NULL, 0, ?)
            """, listId, now)
        return listId
    }

    func setVersion(_ version: Int64, of listId: Int64, list: String) throws {
        try connection.run("UPDATE lists SET version = ? WHERE id = ?", version, listId)
        listRows[list] = nil
    }
}
