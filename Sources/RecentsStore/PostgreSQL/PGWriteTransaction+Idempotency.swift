// Idempotency keys in PostgreSQL: the `idempotency_keys` table of postgresql/0002.
extension PGWriteTransaction {
    /// The reply recorded for `key` in `list` within the retention window, if any.
    ///
    /// Locks `list` first: two writers (of this instance or another) given one key at once
    /// serialise there, so the second reads the first's committed reply instead of writing again.
    func idempotentReply(key: String, in list: String) throws -> IdempotentReply? {
        try guarded {
            try checkActive()
            _ = try listRow(list)
            let found = try connection.query(
                "SELECT fingerprint, status, body FROM idempotency_keys WHERE list = $1 AND key = $2 AND created_at > $3",
                list, key, now - IdempotentReply.retentionSeconds)
            guard found.count == 1 else { return nil }
            return IdempotentReply(
                fingerprint: found.string(0, 0), status: try found.int(0, 1), body: Array(found.string(0, 2).utf8))
        }
    }

    /// Records `reply` for `key` in `list` in this request's savepoint; an expired record of the
    /// same key is replaced. The body is the server's own JSON, valid UTF-8, so it is stored as text.
    func recordIdempotentReply(_ reply: IdempotentReply, key: String, in list: String) throws {
        try guarded {
            try checkActive()
            try connection.query(
                """
                INSERT INTO idempotency_keys (list, key, fingerprint, status, body, created_at)
                VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (list, key) DO UPDATE SET fingerprint = excluded.fingerprint,
                    status = excluded.status, body = excluded.body, created_at = excluded.created_at
                """, list, key, reply.fingerprint, reply.status, String(decoding: reply.body, as: UTF8.self), now)
        }
    }
}
