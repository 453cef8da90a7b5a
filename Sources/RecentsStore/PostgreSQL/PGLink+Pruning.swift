// Pruning's statements in PostgreSQL: each commits on its own (autocommit), so a chunk holds no
// lock for long and instances pruning the same list at once only delete the same rows.
extension PGLink: PruningTarget {
    /// Each statement commits on its own: a failure keeps what came before it.
    var keepsPartialChunks: Bool { true }

    /// Runs `body` as it is: its statements are their own transactions either way.
    func pruningChunk(ownTransaction: Bool, _ body: () throws -> Void) -> Bool {
        (try? body()) != nil
    }

    func listId(after id: Int64) throws -> Int64? {
        let result = try usable().query("SELECT id FROM lists WHERE id > $1 ORDER BY id LIMIT 1", id)
        return result.count > 0 ? try result.int64(0, 0) : nil
    }

    /// The floor rises under the row's lock, so it is computed from the committed version; an
    /// unchanged floor writes nothing.
    func raiseFloor(of listId: Int64, retain: Int64) throws -> (horizon: Int64, purgeBelow: Int64)? {
        let connection = try usable()
        var floor = try connection.query(
            """
            UPDATE lists SET pruned_below = GREATEST(forgotten_below, version - $2)
            WHERE id = $1 AND pruned_below < GREATEST(forgotten_below, version - $2) RETURNING pruned_below, purge_below
            """, listId, retain)
        if floor.count == 0 {
            floor = try connection.query(
                "SELECT GREATEST(forgotten_below, pruned_below, version - $2), purge_below FROM lists WHERE id = $1",
                listId, retain)
        }
        return floor.count > 0 ? (try floor.int64(0, 0), try floor.int64(0, 1)) : nil
    }

    /// The leftovers are committed before `purge_below` was read (the forget that made them
    /// committed with it), so this statement's snapshot sees every one of them.
    func deleteLeftovers(of listId: Int64, below purgeBelow: Int64, limit: Int) throws -> Int {
        try usable().query(
            """
            DELETE FROM calls WHERE id IN
                (SELECT id FROM calls WHERE list_id = $1 AND created_version < $2 LIMIT $3)
            """, listId, purgeBelow, limit
        ).affectedRows
    }

    func endPurge(of listId: Int64, below purgeBelow: Int64) throws {
        try usable().query("UPDATE lists SET purge_below = 0 WHERE id = $1 AND purge_below = $2", listId, purgeBelow)
    }

    func oldestClear(of listId: Int64) throws -> Int64? {
        let result = try usable().query(
            "SELECT version FROM list_clears WHERE list_id = $1 ORDER BY version LIMIT 1", listId)
        return result.count > 0 ? try result.int64(0, 0) : nil
    }

    /// The clear committed before its `list_clears` row was read, so this statement's snapshot
    /// sees every call it hid; a writer marking one of them at once (a re-posted id) sets the
    /// same version, and READ COMMITTED skips the row it already marked.
    func markCleared(of listId: Int64, by clear: Int64, limit: Int) throws -> Int {
        try usable().query(
            """
            UPDATE calls SET deleted_version = $2 WHERE deleted_version IS NULL AND id IN
                (SELECT id FROM calls WHERE list_id = $1 AND deleted_version IS NULL AND created_version < $2 LIMIT $3)
            """, listId, clear, limit
        ).affectedRows
    }

    /// A newer clear holds the row's lock until it commits, then the test sees its version and
    /// leaves it.
    func endClear(of listId: Int64, at clear: Int64) throws {
        let connection = try usable()
        try connection.query("DELETE FROM list_clears WHERE list_id = $1 AND version = $2", listId, clear)
        try connection.query(
            "UPDATE lists SET cleared_below = 0 WHERE id = $1 AND cleared_below = $2", listId, clear)
    }

    func deleteCalls(of listId: Int64, deletedBy horizon: Int64, limit: Int) throws -> Int {
        try usable().query(
            """
            DELETE FROM calls WHERE id IN
                (SELECT id FROM calls WHERE list_id = $1 AND deleted_version <= $2 LIMIT $3)
            """, listId, horizon, limit
        ).affectedRows
    }

    func deleteStates(of listId: Int64, before horizon: Int64, limit: Int) throws -> Int {
        try usable().query(
            """
            DELETE FROM list_versions WHERE list_id = $1 AND version IN
                (SELECT version FROM list_versions WHERE list_id = $1 AND version <
                    (SELECT max(version) FROM list_versions WHERE list_id = $1 AND version <= $2)
                 LIMIT $3)
            """, listId, horizon, limit
        ).affectedRows
    }

    /// The outer `created_at` test is checked again on a row another instance re-recorded
    /// meanwhile (READ COMMITTED re-evaluates it on the newest row version), so a fresh reply is
    /// never deleted.
    func deleteKeys(recordedBy cutoff: Int64, limit: Int) throws -> Int {
        try usable().query(
            """
            DELETE FROM idempotency_keys WHERE created_at <= $1 AND (list, key) IN
                (SELECT list, key FROM idempotency_keys WHERE created_at <= $1 ORDER BY created_at LIMIT $2)
            """, cutoff, limit
        ).affectedRows
    }
}
