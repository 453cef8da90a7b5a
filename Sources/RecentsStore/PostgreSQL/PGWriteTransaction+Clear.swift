extension PGWriteTransaction {
    /// Clears `list` in O(1): a new version, `call_count` 0 and a `list_clears` row that hides
    /// every call created below the new version from it on; the pruner marks them deleted later
    /// (`PGLink.markCleared`). Marking a million calls here held the list's lock for seconds.
    func clearCalls(of list: String) throws {
        try guarded {
            try checkActive()
            guard let row = try listRow(list), row.callCount > 0 else { return }
            try immediate()
            let (listId, version) = try newVersion(of: list)
            // The new version and this request's calls go out now: the UPDATE below sets the
            // count outright, and those calls, sharing the new version above the floor, are
            // marked deleted at once.
            try batch.flush(on: connection)
            if let own = inserted.removeValue(forKey: listId) {
                try connection.query(
                    """
                    UPDATE calls SET deleted_version = $3
                    WHERE list_id = $1 AND call_id = ANY($2::text[]) AND deleted_version IS NULL AND created_version = $3
                    """, listId, PGArray(own), version)
            }
            // A second clear in one request shares the version: its row is there already.
            try connection.query(
                "INSERT INTO list_clears (list_id, version) VALUES ($1, $2) ON CONFLICT DO NOTHING", listId, version)
            try connection.query(
                "UPDATE lists SET cleared_below = $1, call_count = 0, unseen_missed = 0 WHERE id = $2", version, listId)
            batch.overlay.rows[list]?.clearedBelow = version
            batch.overlay.rows[list]?.callCount = 0
            batch.overlay.rows[list]?.unseenMissed = 0
            // The badge drops to 0 with the calls: its version row, as for any change of the count.
            if row.unseenMissed != 0 {
                try connection.query(
                    """
                    INSERT INTO list_versions (list_id, version, editing, revealed_row_id, seen_through, unseen_missed,
                                               created_at)
                    VALUES ($1, $2, $3, $4, $5, 0, $6)
                    ON CONFLICT (list_id, version) DO UPDATE SET editing = excluded.editing,
                        revealed_row_id = excluded.revealed_row_id, seen_through = excluded.seen_through,
                        unseen_missed = excluded.unseen_missed
                    """, listId, version, row.state.editing, row.state.revealedRowId, row.state.seenThrough, now)
            }
            // Every call this batch looked up is hidden now: look them up again.
            batch.overlay.calls[listId] = nil
            needsPruning.append(listId)
        }
    }
}
