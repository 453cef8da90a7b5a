// The outbox of "Delete for everyone" across shards: the tables of postgresql/0009.
extension PGWriteTransaction: OutboxTransaction {
    func enqueuePeerDeletion(_ ids: [String], peer: String, caller: String) throws {
        try guarded {
            try checkActive()
            guard !ids.isEmpty else { return }
            // Under this request's savepoint: a body that fails later takes its entry back too.
            try immediate()
            try connection.query(
                "INSERT INTO shard_outbox (caller, peer, call_ids) VALUES ($1, $2, $3::text[])", caller, peer,
                PGArray(ids))
        }
    }

    func markApplied(token: String, to list: String) throws -> Bool {
        try guarded {
            try checkActive()
            try immediate()
            // A second drain of the same entry, in another instance, waits here for the first's
            // commit and then finds its token.
            let inserted = try connection.query(
                "INSERT INTO shard_outbox_applied (token, list) VALUES ($1::uuid, $2) ON CONFLICT DO NOTHING RETURNING 1",
                token, list)
            guard inserted.count == 1 else { return false }
            try connection.query("DELETE FROM shard_outbox_applied WHERE applied_at < now() - interval '7 days'")
            return true
        }
    }
}
