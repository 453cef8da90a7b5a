import RecentsCore

/// One attempt of one PostgreSQL batch: its list locks, and its overlay of what it read and what
/// it holds back.
///
/// Why hold writes back: a statement costs a round trip and an executor start-up on both sides,
/// and in one transaction N call posts need no more than one INSERT and one UPDATE between them.
/// So the calls, the `lists` version and count changes and the idempotent replies of every request
/// wait in the overlay and go out as one set-based statement each (`flush`): at the end of the
/// batch, or earlier when a statement of another kind must see them. A request that only holds
/// writes back needs no savepoint either: when it fails, its overlay is put back and nothing of it
/// ever reached the database.
///
/// Owned by the writer thread for one attempt of one batch; not Sendable.
final class PGWriteBatch {
    let locks = PGBatchLocks()
    var overlay = PGBatchOverlay()
    /// Every request runs under its own savepoint from its start and sends what it holds back
    /// before it ends: how a batch runs again after a statement failed where no savepoint covered
    /// it, so that the failure is the failing request's alone.
    let safeMode: Bool

    init(safeMode: Bool) {
        self.safeMode = safeMode
    }

    /// Reads what `hints` name ahead of the requests: locks the hinted lists' rows in one
    /// statement (unless `lockRows` is false: a retry locks its lists one by one, in order, first)
    /// and fetches the hinted calls of every locked list in another. Returns the lists it locked.
    func prefetch(_ hints: [WriteHint], lockRows: Bool, on connection: PGConnection) throws -> [String] {
        var locked: [String] = []
        if lockRows {
            let rows = try locks.lockRows(of: hints.flatMap { $0.lists + $0.calls.keys }, on: connection)
            overlay.rows.merge(rows) { _, fetched in fetched }
            locked = Array(rows.keys)
        }
        var listIds: [Int64] = []
        var callIds: [String] = []
        for hint in hints {
            for (list, ids) in hint.calls {
                guard let listId = overlay.rows[list]?.id else { continue }
                for id in ids where overlay.calls[listId]?[id] == nil {
                    // Not live unless the fetch below finds it.
                    overlay.calls[listId, default: [:]][id] = .some(nil)
                    listIds.append(listId)
                    callIds.append(id)
                }
            }
        }
        guard !listIds.isEmpty else { return locked }
        // One index lookup per id, whatever the statistics say: planned as a join, a young table
        // whose statistics still said "empty" got a hash join over every live call (3.6 ms a batch).
        let found = try connection.query(
            """
            SELECT c.*, u.list_id FROM unnest($1::bigint[], $2::text[]) AS u(list_id, call_id)
            CROSS JOIN LATERAL (
                SELECT \(PGCallCursor.columns) FROM calls
                WHERE calls.list_id = u.list_id AND calls.call_id = u.call_id AND deleted_version IS NULL LIMIT 1
            ) AS c
            """, listIds, callIds)
        for row in 0..<found.count {
            let call = try PGCallCursor.decode(found, row: row)
            overlay.calls[try found.int64(row, 8), default: [:]][call.id] = .some(call)
        }
        return locked
    }

    /// Sends the held-back writes (the first entries of each kind up to `mark`, or all of them).
    func flush(on connection: PGConnection, upTo mark: PGBatchOverlay.Mark? = nil) throws {
        let upTo = mark ?? overlay.mark
        let calls = overlay.pendingCalls.prefix(upTo.calls)
        let changes = overlay.pendingListChanges.prefix(upTo.listChanges)
        let replies = overlay.pendingReplies.prefix(upTo.replies)
        if !calls.isEmpty { try Self.insert(calls, on: connection) }
        if !changes.isEmpty { try Self.update(changes, on: connection) }
        if !replies.isEmpty { try Self.record(replies, on: connection) }
        overlay.pendingCalls.removeFirst(calls.count)
        overlay.pendingListChanges.removeFirst(changes.count)
        overlay.pendingReplies.removeFirst(replies.count)
    }

    private static func insert(_ pending: ArraySlice<PGBatchOverlay.PendingCall>, on connection: PGConnection) throws {
        try connection.query(
            """
            INSERT INTO calls (list_id, call_id, peer_id, peer_name, direction, end_reason, video, duration,
                               "timestamp", missed, created_version)
            SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                                 $7::boolean[], $8::bigint[], $9::bigint[], $10::boolean[], $11::bigint[])
            """,
            pending.map(\.listId), pending.map(\.call.id), pending.map(\.call.peer.id), pending.map(\.call.peer.name),
            pending.map(\.call.direction.rawValue), pending.map(\.call.endReason.rawValue), pending.map(\.call.video),
            pending.map(\.call.duration), pending.map(\.call.timestamp), pending.map(\.call.isMissed),
            pending.map(\.version))
    }

    /// One row per list (an UPDATE … FROM that matched a row twice would apply only one change):
    /// the newest version and the sum of the count changes.
    private static func update(
        _ pending: ArraySlice<PGBatchOverlay.PendingListChange>, on connection: PGConnection
    ) throws {
        var order: [Int64] = []
        var merged: [Int64: (version: Int64, delta: Int)] = [:]
        for change in pending {
            if let known = merged[change.listId] {
                merged[change.listId] = (max(known.version, change.version), known.delta + change.countDelta)
            } else {
                order.append(change.listId)
                merged[change.listId] = (change.version, change.countDelta)
            }
        }
        let updated = try connection.query(
            """
            UPDATE lists AS l SET version = u.version, call_count = l.call_count + u.delta
            FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS u(id, version, delta)
            WHERE l.id = u.id RETURNING l.id
            """, order, order.map { merged[$0]?.version ?? 0 }, order.map { merged[$0]?.delta ?? 0 })
        // Every row is locked by this transaction, so a row missing means the schema is not ours.
        guard updated.count == order.count else {
            throw StoreError.corruptRow("lists update matched \(updated.count) of \(order.count) rows")
        }
    }

    /// The newest reply per key (a batch looks its own replies up first, so there is one anyway).
    private static func record(_ pending: ArraySlice<PGBatchOverlay.PendingReply>, on connection: PGConnection) throws {
        var seen = Set<[String]>()
        let newest = pending.reversed().filter { seen.insert([$0.list, $0.key]).inserted }
        try connection.query(
            """
            INSERT INTO idempotency_keys (list, key, fingerprint, status, body, created_at)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::integer[], $5::text[], $6::bigint[])
            ON CONFLICT (list, key) DO UPDATE SET fingerprint = excluded.fingerprint,
                status = excluded.status, body = excluded.body, created_at = excluded.created_at
            """, newest.map(\.list), newest.map(\.key), newest.map(\.reply.fingerprint), newest.map(\.reply.status),
            newest.map { String(decoding: $0.reply.body, as: UTF8.self) }, newest.map(\.createdAt))
    }
}
