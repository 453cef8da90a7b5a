// Pruning's statements in SQLite: one writer, so a chunk is one transaction (or a savepoint of
// the write batch it rides on) and reads then writes without racing anyone.
extension SQLiteConnection: PruningTarget {
    /// A chunk is undone as a whole when it fails.
    var keepsPartialChunks: Bool { false }

    func pruningChunk(ownTransaction: Bool, _ body: () throws -> Void) -> Bool {
        if ownTransaction { return (try? transaction(.immediate, body)) != nil }
        // A savepoint keeps a pruning failure from failing the write batch it rides on.
        return (try? savepoint("prune", body).get()) != nil
    }

    func listId(after id: Int64) throws -> Int64? {
        try with("SELECT id FROM lists WHERE id > ? ORDER BY id LIMIT 1", id) { try $0.step() ? $0.int64(0) : nil }
    }

    func raiseFloor(of listId: Int64, retain: Int64) throws -> (horizon: Int64, purgeBelow: Int64)? {
        let found = try with(
            "SELECT max(forgotten_below, pruned_below, version - ?), purge_below FROM lists WHERE id = ?", retain,
            listId
        ) { try $0.step() ? (horizon: $0.int64(0), purgeBelow: $0.int64(1)) : nil }
        guard let found else { return nil }
        try run(
            "UPDATE lists SET pruned_below = ? WHERE id = ? AND pruned_below < ?", found.horizon, listId, found.horizon)
        return found
    }

    /// Walks the list's `calls_view` entries (they hold `created_version`), newest first; the
    /// list's own live calls, if any, come before the leftovers only when they are newer.
    func deleteLeftovers(of listId: Int64, below purgeBelow: Int64, limit: Int) throws -> Int {
        try run(
            """
            DELETE FROM calls WHERE rowid IN
                (SELECT rowid FROM calls WHERE list_id = ? AND created_version < ? LIMIT ?)
            """, listId, purgeBelow, limit)
    }

    func endPurge(of listId: Int64, below purgeBelow: Int64) throws {
        try run("UPDATE lists SET purge_below = 0 WHERE id = ? AND purge_below = ?", listId, purgeBelow)
    }

    func oldestClear(of listId: Int64) throws -> Int64? {
        try with("SELECT version FROM list_clears WHERE list_id = ? ORDER BY version LIMIT 1", listId) {
            try $0.step() ? $0.int64(0) : nil
        }
    }

    /// Walks the list's live calls (`calls_live_id`); those created at or above the clear are
    /// skipped, so a chunk costs them too, while a clear waits.
    func markCleared(of listId: Int64, by clear: Int64, limit: Int) throws -> Int {
        // Through the live-id index, which a marked call leaves: the planner's choice, the covering
        // calls_view, keeps marked calls, so each chunk stepped over every call marked before it
        // (a million-call clear's chunks grew to over a second of the one writer).
        try run(
            """
            UPDATE calls SET deleted_version = ?2 WHERE rowid IN
                (SELECT rowid FROM calls INDEXED BY calls_live_id
                 WHERE list_id = ?1 AND deleted_version IS NULL AND created_version < ?2 LIMIT ?3)
            """, listId, clear, limit)
    }

    func endClear(of listId: Int64, at clear: Int64) throws {
        try run("DELETE FROM list_clears WHERE list_id = ? AND version = ?", listId, clear)
        try run("UPDATE lists SET cleared_below = 0 WHERE id = ? AND cleared_below = ?", listId, clear)
    }

    func deleteCalls(of listId: Int64, deletedBy horizon: Int64, limit: Int) throws -> Int {
        try run(
            """
            DELETE FROM calls WHERE rowid IN
                (SELECT rowid FROM calls WHERE list_id = ? AND deleted_version <= ? LIMIT ?)
            """, listId, horizon, limit)
    }

    func deleteStates(of listId: Int64, before horizon: Int64, limit: Int) throws -> Int {
        try run(
            """
            DELETE FROM list_versions WHERE list_id = ?1 AND version IN
                (SELECT version FROM list_versions WHERE list_id = ?1 AND version <
                    (SELECT max(version) FROM list_versions WHERE list_id = ?1 AND version <= ?2)
                 LIMIT ?3)
            """, listId, horizon, limit)
    }

    func deleteKeys(recordedBy cutoff: Int64, limit: Int) throws -> Int {
        try run(
            """
            DELETE FROM idempotency_keys WHERE rowid IN
                (SELECT rowid FROM idempotency_keys WHERE created_at <= ? ORDER BY created_at LIMIT ?)
            """, cutoff, limit)
    }
}
