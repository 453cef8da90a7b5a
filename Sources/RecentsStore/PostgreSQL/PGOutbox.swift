/// The drainer's statements on a shard's outbox (`OutboxDrainer`), on a connection of its own.
enum PGOutbox {
    /// The oldest `limit` entries, in id order.
    static func entries(on connection: PGConnection, limit: Int) throws -> [OutboxEntry] {
        // Ids are of [A-Za-z0-9._:-] (contract section 0), so a comma cannot occur in one.
        let found = try connection.query(
            """
            SELECT id, token::text, caller, peer, array_to_string(call_ids, ',') FROM shard_outbox
            ORDER BY id LIMIT $1
            """, limit)
        return try (0..<found.count).map { row in
            OutboxEntry(
                id: try found.int64(row, 0), token: found.string(row, 1), caller: found.string(row, 2),
                peer: found.string(row, 3), callIds: found.string(row, 4).split(separator: ",").map(String.init))
        }
    }

    /// Deletes the entries applied on their peers' shards.
    static func remove(_ ids: [Int64], on connection: PGConnection) throws {
        guard !ids.isEmpty else { return }
        try connection.query("DELETE FROM shard_outbox WHERE id = ANY($1::bigint[])", PGArray(ids))
    }

    /// How many entries wait, and when the oldest was committed.
    static func backlog(on connection: PGConnection) throws -> OutboxBacklog {
        let found = try connection.query(
            "SELECT count(*), extract(epoch FROM min(created_at))::bigint FROM shard_outbox")
        guard found.count == 1 else { return OutboxBacklog() }
        return OutboxBacklog(
            pending: try found.int(0, 0), oldestCreatedAt: found.isNull(0, 1) ? nil : try found.int64(0, 1))
    }
}
