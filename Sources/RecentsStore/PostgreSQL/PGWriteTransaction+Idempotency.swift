// Idempotency keys in PostgreSQL: the `idempotency_keys` table of postgresql/0002 and 0004.
extension PGWriteTransaction {
    /// The reply recorded for `key` in `list` within the retention window, if any (a reply this
    /// batch holds back included).
    ///
    /// Locks `list` first: two writers (of this instance or another) given one key at once
    /// serialise there, so the second reads the first's committed reply instead of writing again.
    func idempotentReply(key: String, in list: String) throws -> IdempotentReply? {
        try guarded {
            try checkActive()
            _ = try listRow(list)
            if let held = batch.overlay.pendingReply(key: key, in: list) { return held }
            let found = try connection.query(
                """
                SELECT fingerprint, status, body, form FROM idempotency_keys
                WHERE list = $1 AND key = $2 AND created_at > $3
                """,
                list, key, now - IdempotentReply.retentionSeconds)
            guard found.count == 1 else { return nil }
            return IdempotentReply(
                fingerprint: found.string(0, 0), status: try found.int(0, 1), body: Array(found.string(0, 2).utf8),
                form: IdempotentReply.Form(rawValue: try found.int(0, 3)) ?? .answer)
        }
    }

    /// Holds `reply` for `key` in `list` back for the batch's INSERT; an expired record of the
    /// same key is replaced, and the list's keys beyond `IdempotentReply.keysPerList` go, the
    /// oldest first. The body is the server's own JSON or recipe, valid UTF-8, so it is stored as text.
    func recordIdempotentReply(_ reply: IdempotentReply, key: String, in list: String) throws {
        try guarded {
            try checkActive()
            try batch.fence?.check(list, on: connection)
            batch.overlay.pendingReplies.append(.init(list: list, key: key, reply: reply, createdAt: now))
        }
    }
}
