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
    /// The bucket check of a sharded store's writes (nil: one database, no check at all).
    let fence: BucketFence?

    init(safeMode: Bool, fenced: Bool = false) {
        self.safeMode = safeMode
        self.fence = fenced ? BucketFence() : nil
    }

    /// Opens the batch's transaction and reads what `hints` name ahead of the requests, in one
    /// round trip: BEGIN, the hinted lists' rows locked in one statement (in name order), and
    /// every hinted call of them fetched in another. A retry (`lockFirst` not empty) locks its
    /// lists one by one first, in order, and then fetches. Returns the lists it locked.
    func open(_ hints: [WriteHint], lockFirst: [String], on connection: PGConnection) throws -> [String] {
        let listNames = Set(hints.flatMap { $0.lists + $0.calls.keys })
        let wanted = hints.flatMap { hint in hint.calls.flatMap { list, ids in ids.map { (list: list, id: $0) } } }
        let fetch = PGStatement(
            // One index probe per id whatever the statistics say: planned as a join, a young
            // table whose statistics still said "empty" got a hash join over every live call.
            """
            SELECT c.*, u.list FROM unnest($1::text[], $2::text[]) AS u(list, call_id)
            CROSS JOIN LATERAL (
                SELECT \(PGCallCursor.columns) FROM calls
                WHERE calls.list_id = (SELECT id FROM lists WHERE name = u.list) AND calls.call_id = u.call_id
                    AND deleted_version IS NULL
                    AND created_version >= (SELECT GREATEST(forgotten_below, cleared_below) FROM lists WHERE name = u.list)
                LIMIT 1
            ) AS c
            """, PGArray(wanted.lazy.map(\.list)), PGArray(wanted.lazy.map(\.id)))
        var locked: [String] = []
        let found: PGResult?
        if lockFirst.isEmpty {
            var statements = [PGStatement("BEGIN")]
            // Sent with BEGIN, so a sharded write's bucket check costs no round trip of its own.
            let check = listNames.isEmpty ? nil : fence?.checkStatement(of: listNames)
            if let check { statements.append(check) }
            let lock = listNames.isEmpty ? nil : locks.lockRowsStatement(of: Array(listNames))
            if let lock { statements.append(lock) }
            if !wanted.isEmpty { statements.append(fetch) }
            let results = try connection.pipeline(statements)
            if check != nil, results.count > 1 { try fence?.note(results[1]) }
            let lockAt = check == nil ? 1 : 2
            if lock != nil, results.count > lockAt {
                let rows = try locks.noteLocked(results[lockAt])
                overlay.rows.merge(rows) { _, fetched in fetched }
                locked = Array(rows.keys)
            }
            found = wanted.isEmpty ? nil : results.last
        } else {
            try connection.execute("BEGIN")
            for list in lockFirst {
                if let row = try locks.lock(list, on: connection) { overlay.rows[list] = row }
            }
            found = wanted.isEmpty ? nil : try connection.pipeline([fetch]).first
        }
        // A hinted call of a locked list is not live unless the fetch found it.
        for (list, id) in wanted {
            guard let listId = overlay.rows[list]?.id, overlay.calls[listId]?[id] == nil else { continue }
            overlay.calls[listId, default: [:]][id] = .some(nil)
        }
        if let found {
            for row in 0..<found.count {
                guard let listId = overlay.rows[found.string(row, 8)]?.id else { continue }
                let call = try PGCallCursor.decode(found, row: row)
                overlay.calls[listId, default: [:]][call.id] = .some(call)
            }
        }
        return locked
    }

    /// Sends the held-back writes (the first entries of each kind up to `mark`, or all of them)
    /// in one round trip.
    func flush(on connection: PGConnection, upTo mark: PGBatchOverlay.Mark? = nil) throws {
        let statements = writes(upTo: mark)
        guard !statements.isEmpty else { return }
        _ = try connection.pipeline(statements)
    }

    /// Sends every held-back write and COMMIT in one round trip.
    /// - Throws: `PGBatchDoomed` when a write failed (the transaction is still open and failed,
    ///   so the batch runs again in `safeMode`); a COMMIT's failure, or a read-only server's
    ///   refusal (the whole batch goes elsewhere), as it is.
    func commit(on connection: PGConnection) throws {
        do {
            _ = try connection.pipeline(writes(upTo: nil) + [PGStatement("COMMIT")])
        } catch let error as PGError
            where !error.isRetryable && !error.isConnectionFailure && !error.isReadOnlyRefusal
            && connection.inTransaction
        {
            throw PGBatchDoomed(error: error)
        }
    }

    /// The statements of the held-back writes up to `mark`, taken out of the overlay.
    private func writes(upTo mark: PGBatchOverlay.Mark?) -> [PGStatement] {
        let upTo = mark ?? overlay.mark
        let calls = overlay.pendingCalls.prefix(upTo.calls)
        let changes = overlay.pendingListChanges.prefix(upTo.listChanges)
        let replies = overlay.pendingReplies.prefix(upTo.replies)
        var statements: [PGStatement] = []
        if calls.contains(where: { $0.purgeBelow > 0 }) { statements.append(Self.dropLeftovers(calls)) }
        if calls.contains(where: { $0.clearedBelow > 0 }) { statements.append(Self.markCleared(calls)) }
        if !calls.isEmpty { statements.append(Self.insert(calls)) }
        if !changes.isEmpty { statements.append(Self.update(changes)) }
        if changes.contains(where: { $0.versionRow != nil }) { statements.append(Self.recordVersions(changes)) }
        if !replies.isEmpty { statements += [Self.record(replies), Self.evictBeyondBound(replies)] }
        overlay.pendingCalls.removeFirst(calls.count)
        overlay.pendingListChanges.removeFirst(changes.count)
        overlay.pendingReplies.removeFirst(replies.count)
        return statements
    }

    /// Removes a forget's leftovers that carry an id about to be inserted: hidden from reads, they
    /// still hold their ids in the `calls_live_id` unique index until the pruner gets to them.
    private static func dropLeftovers(_ pending: ArraySlice<PGBatchOverlay.PendingCall>) -> PGStatement {
        let leftover = pending.filter { $0.purgeBelow > 0 }
        return PGStatement(
            """
            DELETE FROM calls USING unnest($1::bigint[], $2::text[], $3::bigint[]) AS u(list_id, call_id, below)
            WHERE calls.list_id = u.list_id AND calls.call_id = u.call_id AND calls.deleted_version IS NULL
                AND calls.created_version < u.below
            """, PGArray(leftover.lazy.map(\.listId)), PGArray(leftover.lazy.map(\.call.id)),
            PGArray(leftover.lazy.map(\.purgeBelow)))
    }

    /// Marks deleted, at the clear that hid it, a call a clear hid that carries an id about to be
    /// inserted: it still holds its id in `calls_live_id` until the pruner gets to it, and
    /// versions before the clear still show it, so it is marked, never removed.
    private static func markCleared(_ pending: ArraySlice<PGBatchOverlay.PendingCall>) -> PGStatement {
        let hidden = pending.filter { $0.clearedBelow > 0 }
        return PGStatement(
            """
            UPDATE calls SET deleted_version =
                (SELECT min(version) FROM list_clears k WHERE k.list_id = calls.list_id AND k.version > calls.created_version)
            FROM unnest($1::bigint[], $2::text[], $3::bigint[]) AS u(list_id, call_id, below)
            WHERE calls.list_id = u.list_id AND calls.call_id = u.call_id AND calls.deleted_version IS NULL
                AND calls.created_version < u.below
            """, PGArray(hidden.lazy.map(\.listId)), PGArray(hidden.lazy.map(\.call.id)),
            PGArray(hidden.lazy.map(\.clearedBelow)))
    }

    private static func insert(_ pending: ArraySlice<PGBatchOverlay.PendingCall>) -> PGStatement {
        PGStatement(
            """
            INSERT INTO calls (list_id, call_id, peer_id, peer_name, direction, end_reason, video, duration,
                               "timestamp", missed, created_version)
            SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                                 $7::boolean[], $8::bigint[], $9::bigint[], $10::boolean[], $11::bigint[])
            """,
            PGArray(pending.lazy.map(\.listId)), PGArray(pending.lazy.map(\.call.id)),
            PGArray(pending.lazy.map(\.call.peer.id)), PGArray(pending.lazy.map(\.call.peer.name)),
            PGArray(pending.lazy.map(\.call.direction.rawValue)), PGArray(pending.lazy.map(\.call.endReason.rawValue)),
            PGArray(pending.lazy.map(\.call.video)), PGArray(pending.lazy.map(\.call.duration)),
            PGArray(pending.lazy.map(\.call.timestamp)), PGArray(pending.lazy.map(\.call.isMissed)),
            PGArray(pending.lazy.map(\.version)))
    }

    /// One row per list (an UPDATE … FROM that matched a row twice would apply only one change):
    /// the newest version and the sums of the count and badge changes. Every row is locked by this
    /// transaction (or made by it), so each id matches exactly one, and adding to the stored values
    /// (not setting them) keeps another instance's earlier commits.
    private static func update(_ pending: ArraySlice<PGBatchOverlay.PendingListChange>) -> PGStatement {
        var order: [Int64] = []
        var merged: [Int64: (version: Int64, delta: Int, unseen: Int)] = [:]
        for change in pending {
            if let known = merged[change.listId] {
                merged[change.listId] = (
                    max(known.version, change.version), known.delta + change.countDelta,
                    known.unseen + change.unseenDelta
                )
            } else {
                order.append(change.listId)
                merged[change.listId] = (change.version, change.countDelta, change.unseenDelta)
            }
        }
        return PGStatement(
            """
            UPDATE lists AS l SET version = u.version, call_count = l.call_count + u.delta,
                unseen_missed = l.unseen_missed + u.unseen
            FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[]) AS u(id, version, delta, unseen)
            WHERE l.id = u.id
            """, PGArray(order), PGArray(order.lazy.map { merged[$0]?.version ?? 0 }),
            PGArray(order.lazy.map { merged[$0]?.delta ?? 0 }), PGArray(order.lazy.map { merged[$0]?.unseen ?? 0 }))
    }

    /// The `list_versions` rows of the changes that moved a badge, the last one per list and version
    /// (an INSERT … ON CONFLICT may not touch one row twice).
    private static func recordVersions(_ pending: ArraySlice<PGBatchOverlay.PendingListChange>) -> PGStatement {
        var seen = Set<[Int64]>()
        let rows = pending.reversed().compactMap { change in
            change.versionRow.flatMap { row in
                seen.insert([change.listId, change.version]).inserted ? (change, row) : nil
            }
        }
        return PGStatement(
            """
            INSERT INTO list_versions (list_id, version, editing, revealed_row_id, seen_through, unseen_missed,
                                       created_at)
            SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::boolean[], $4::text[], $5::bigint[], $6::bigint[],
                                 $7::bigint[])
            ON CONFLICT (list_id, version) DO UPDATE SET editing = excluded.editing,
                revealed_row_id = excluded.revealed_row_id, seen_through = excluded.seen_through,
                unseen_missed = excluded.unseen_missed
            """, PGArray(rows.lazy.map(\.0.listId)), PGArray(rows.lazy.map(\.0.version)),
            PGArray(rows.lazy.map(\.1.state.editing)), PGArray(rows.lazy.map(\.1.state.revealedRowId)),
            PGArray(rows.lazy.map(\.1.state.seenThrough)), PGArray(rows.lazy.map(\.1.unseenMissed)),
            PGArray(rows.lazy.map(\.1.createdAt)))
    }

    /// The newest reply per key (a batch looks its own replies up first, so there is one anyway).
    private static func record(_ pending: ArraySlice<PGBatchOverlay.PendingReply>) -> PGStatement {
        var seen = Set<[String]>()
        let newest = pending.reversed().filter { seen.insert([$0.list, $0.key]).inserted }
        return PGStatement(
            """
            INSERT INTO idempotency_keys (list, key, fingerprint, status, body, created_at, form)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::integer[], $5::text[], $6::bigint[],
                                 $7::smallint[])
            ON CONFLICT (list, key) DO UPDATE SET fingerprint = excluded.fingerprint,
                status = excluded.status, body = excluded.body, created_at = excluded.created_at,
                form = excluded.form
            """, PGArray(newest.lazy.map(\.list)), PGArray(newest.lazy.map(\.key)),
            PGArray(newest.lazy.map(\.reply.fingerprint)), PGArray(newest.lazy.map(\.reply.status)),
            PGArray(newest.lazy.map { String(decoding: $0.reply.body, as: UTF8.self) }),
            PGArray(newest.lazy.map(\.createdAt)), PGArray(newest.lazy.map(\.reply.form.rawValue)))
    }

    /// Forgets the keys of the lists `pending` recorded in beyond `IdempotentReply.keysPerList`,
    /// the oldest first (within one second, by key), in one statement.
    private static func evictBeyondBound(_ pending: ArraySlice<PGBatchOverlay.PendingReply>) -> PGStatement {
        PGStatement(
            """
            DELETE FROM idempotency_keys AS k USING (
                SELECT list, key FROM (
                    SELECT list, key, row_number() OVER (PARTITION BY list ORDER BY created_at DESC, key DESC) AS n
                    FROM idempotency_keys WHERE list = ANY($1::text[])
                ) AS ranked WHERE n > $2
            ) AS old
            WHERE k.list = old.list AND k.key = old.key
            """, PGArray(Set(pending.lazy.map(\.list))), IdempotentReply.keysPerList)
    }
}
