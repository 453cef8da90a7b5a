// Idempotency keys in SQLite: the `idempotency_keys` table of migrations 0004 and 0005.
extension SQLiteWriteTransaction {
    /// The reply recorded for `key` in `list` within the retention window, if any.
    func idempotentReply(key: String, in list: String) throws -> IdempotentReply? {
        try SQLiteError.mapped {
            try checkActive()
            return try connection.with(
                """
                SELECT fingerprint, status, body, form FROM idempotency_keys
                WHERE list = ? AND key = ? AND created_at > ?
                """,
                list, key, now - IdempotentReply.retentionSeconds
            ) { statement in
                guard try statement.step() else { return nil }
                return IdempotentReply(
                    fingerprint: statement.string(0), status: statement.int(1), body: statement.bytes(2),
                    form: IdempotentReply.Form(rawValue: statement.int(3)) ?? .answer)
            }
        }
    }

    /// Records `reply` for `key` in `list` with this request's writes (undone with them); an
    /// expired record of the same key is replaced, and the list's keys beyond
    /// `IdempotentReply.keysPerList` go, the oldest first.
    func recordIdempotentReply(_ reply: IdempotentReply, key: String, in list: String) throws {
        try SQLiteError.mapped {
            try checkActive()
            try connection.run(
                """
                INSERT INTO idempotency_keys (list, key, fingerprint, status, body, created_at, form)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (list, key) DO UPDATE SET fingerprint = excluded.fingerprint,
                    status = excluded.status, body = excluded.body, created_at = excluded.created_at,
                    form = excluded.form
                """, list, key, reply.fingerprint, reply.status, reply.body, now, reply.form.rawValue)
            // Walks at most the list's keys, newest first, along (list, created_at).
            try connection.run(
                """
                DELETE FROM idempotency_keys WHERE rowid IN (
                    SELECT rowid FROM idempotency_keys WHERE list = ?
                    ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET ?)
                """, list, IdempotentReply.keysPerList)
        }
    }
}
