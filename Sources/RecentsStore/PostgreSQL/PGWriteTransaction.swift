import Glibc
import RecentsCore

/// The PostgreSQL `StoreWriter`: one write request of a group-committed batch (`READ COMMITTED`).
///
/// Every list a request looks at is locked first (see `PGBatchLocks`), so two instances writing
/// one list serialise, and the version read under the lock plus one is never given twice and
/// leaves no gap. Posted calls, version and count changes and idempotent replies are held back in
/// the batch's overlay (`PGWriteBatch`); any other statement that writes, or reads what is held
/// back, first sends what earlier requests held back and opens this request's savepoint, so a
/// failing request still undoes exactly its own changes. Valid only inside the write body; not
/// Sendable.
final class PGWriteTransaction: PGReadTransaction, StoreWriter, VersionAssigning {
    var changed: [String: (id: Int64, version: Int64)] = [:]
    var needsPruning: [Int64] = []
    /// Every list this request locked, in the order it did (a retry locks them sorted first).
    private(set) var touched: [String] = []
    /// The ids this request inserted, by list row id: a forget later in the request removes them
    /// (they share its version, so its floor does not hide them).
    var inserted: [Int64: [String]] = [:]
    /// A failure that dooms the whole attempt: a deadlock, serialization failure, lost connection
    /// or read-only server (rolled back and run again, unless the connection was lost), or any
    /// statement failing where no savepoint covered it (run again in `safeMode`).
    private(set) var batchFailure: PGError?
    /// Whether `batchFailure` needs the batch to run again in `safeMode`.
    private(set) var needsSafeMode = false
    /// Whether this request's savepoint is open: its statements since are undone by rolling back to it.
    private(set) var savepointOpen = false
    let now = Int64(time(nil))

    let batch: PGWriteBatch
    /// The overlay as this request found it: what its failure puts back.
    private let before: PGBatchOverlay.Checkpoint

    init(connection: PGConnection, retainVersions: Int, batch: PGWriteBatch) {
        self.batch = batch
        self.before = batch.overlay.checkpoint
        super.init(connection: connection, retainVersions: retainVersions)
    }

    /// Ends the request after its body ran: releases its savepoint, or, when it failed, rolls
    /// back to it and puts the overlay back as the request found it.
    func settle(_ result: Result<Void, any Error>) throws {
        if case .failure = result {
            // What the request found held back was sent before its savepoint opened: it stays.
            batch.overlay.restore(before, sentSince: savepointOpen)
            if savepointOpen { try connection.execute("ROLLBACK TO SAVEPOINT w") }
        }
        if savepointOpen { try connection.execute("RELEASE SAVEPOINT w") }
        savepointOpen = false
    }

    /// In `safeMode` the request's savepoint opens before its body runs.
    func begin() throws {
        if batch.safeMode { try guarded { try immediate() } }
    }

    /// In `safeMode` a request that succeeded sends its held-back writes under its own savepoint,
    /// so a failing INSERT fails this request alone.
    override func finish<T>(_ result: Result<T, any Error>) throws -> T {
        if batch.safeMode, case .success = result, batch.overlay.hasPending {
            try guarded { try batch.flush(on: connection) }
        }
        return try super.finish(result)
    }

    /// Before a statement that writes, or reads what the batch holds back: sends earlier
    /// requests' held-back writes, opens this request's savepoint, then sends its own.
    func immediate() throws {
        if !savepointOpen {
            try batch.flush(on: connection, upTo: before.mark)
            try connection.execute("SAVEPOINT w")
            savepointOpen = true
        }
        try batch.flush(on: connection)
    }

    override func listRow(_ list: String) throws -> ListRow? {
        try checkActive()
        // Before the overlay: a batch also locks the rows of hinted lists it will refuse.
        try batch.fence?.check(list, on: connection)
        if let known = batch.overlay.rows[list] { return known }
        // Noted before locking: a busy lock fails the batch, whose retry must lock this list too.
        touched.append(list)
        let row = try batch.locks.lock(list, on: connection)
        if let row { batch.overlay.rows[list] = row }
        return row
    }

    /// Answered from the overlay when the batch knows the call; a lookup is remembered (the
    /// list is locked, so no one else changes its live calls meanwhile).
    override func liveCall(_ id: String, in row: ListRow) throws -> Call? {
        if let known = batch.overlay.calls[row.id]?[id] { return known }
        let found = try super.liveCall(id, in: row)
        batch.overlay.calls[row.id, default: [:]][id] = .some(found)
        return found
    }

    override func storedVersion(listId: Int64, at version: Int64) throws -> VersionRow? {
        try immediate()
        return try super.storedVersion(listId: listId, at: version)
    }

    override func storedClear(listId: Int64, at version: Int64) throws -> Int64 {
        try immediate()
        return try super.storedClear(listId: listId, at: version)
    }

    override func cursor(_ row: ListRow, version: Int64, floor: Int64, filter: CallFilter) throws -> PGCallCursor {
        try immediate()
        return try super.cursor(row, version: version, floor: floor, filter: filter)
    }

    override func liveIds(_ row: ListRow, version: Int64, floor: Int64) throws -> [String] {
        try immediate()
        return try super.liveIds(row, version: version, floor: floor)
    }

    override func noteFailure(_ error: PGError) {
        if error.isRetryable || error.isConnectionFailure || error.isReadOnlyRefusal {
            batchFailure = batchFailure ?? error
        } else if !savepointOpen {
            // The transaction is aborted and no savepoint of this request can recover it.
            batchFailure = batchFailure ?? error
            needsSafeMode = true
        }
    }

    func insertCalls(_ calls: [Call], into list: String) throws {
        try guarded {
            try checkActive()
            guard !calls.isEmpty else { return }
            let before = try listRow(list)
            let unseen = UnseenMissed.added(calls, seenThrough: before?.state.seenThrough ?? 0)
            let (listId, version) = try newVersion(of: list)
            for call in calls {
                batch.overlay.pendingCalls.append(
                    .init(
                        listId: listId, version: version, call: call, purgeBelow: before?.purgeBelow ?? 0,
                        clearedBelow: before?.clearedBelow ?? 0))
                batch.overlay.calls[listId, default: [:]][call.id] = .some(call)
            }
            inserted[listId, default: []] += calls.lazy.map(\.id)
            batch.overlay.rows[list]?.callCount += calls.count
            batch.overlay.rows[list]?.unseenMissed += unseen
            batch.overlay.pendingListChanges.append(
                .init(
                    listId: listId, version: version, countDelta: calls.count, unseenDelta: unseen,
                    versionRow: unseen != 0 ? versionRow(of: list) : nil))
        }
    }

    @discardableResult
    func deleteCalls(ids: [String], from list: String) throws -> [String] {
        try guarded {
            try checkActive()
            guard let row = try listRow(list) else { return [] }
            var seen = Set<String>()
            let unique = ids.filter { seen.insert($0).inserted }
            guard !unique.isEmpty else { return [] }
            try immediate()
            let found = try connection.query(
                """
                SELECT call_id, missed, "timestamp" FROM calls
                WHERE list_id = $1 AND call_id = ANY($2::text[]) AND deleted_version IS NULL AND created_version >= $3
                """, row.id, PGArray(unique), row.liveFloor)
            let live = Set((0..<found.count).map { found.string($0, 0) })
            let deleted = unique.filter(live.contains)
            let unseen = try (0..<found.count).count { index in
                try found.bool(index, 1) && found.int64(index, 2) > row.state.seenThrough
            }
            guard !deleted.isEmpty else { return [] }
            let (listId, version) = try newVersion(of: list)
            try connection.query(
                """
                UPDATE calls SET deleted_version = $1
                WHERE list_id = $2 AND call_id = ANY($3::text[]) AND deleted_version IS NULL AND created_version >= $4
                """, version, listId, PGArray(deleted), row.liveFloor)
            batch.overlay.rows[list]?.callCount -= deleted.count
            batch.overlay.rows[list]?.unseenMissed -= unseen
            batch.overlay.pendingListChanges.append(
                .init(
                    listId: listId, version: version, countDelta: -deleted.count, unseenDelta: -unseen,
                    versionRow: unseen != 0 ? versionRow(of: list) : nil))
            for id in deleted { batch.overlay.calls[listId, default: [:]][id] = .some(nil) }
            return deleted
        }
    }

    func setState(_ state: ListState, of list: String) throws {
        try guarded {
            try checkActive()
            let row = try listRow(list)
            let current = row?.state ?? ListState()
            guard state != current else { return }
            // Sends what is held back first: the recount below must see this batch's calls.
            try immediate()
            let (listId, version) = try newVersion(of: list)
            var unseen = 0
            if let row, state.seenThrough != current.seenThrough {
                unseen = try missedBetween(row, current.seenThrough, state.seenThrough)
            }
            // The state columns, and the badge as a change under the row lock: the held-back change
            // sets version and count.
            try connection.query(
                """
                UPDATE lists SET editing = $1, revealed_row_id = $2, seen_through = $3,
                    unseen_missed = unseen_missed + $4
                WHERE id = $5
                """, state.editing, state.revealedRowId, state.seenThrough, unseen, listId)
            batch.overlay.rows[list]?.state = state
            batch.overlay.rows[list]?.unseenMissed += unseen
            let recorded = versionRow(of: list)
            try connection.query(
                """
                INSERT INTO list_versions (list_id, version, editing, revealed_row_id, seen_through, unseen_missed,
                                           created_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                ON CONFLICT (list_id, version) DO UPDATE SET editing = excluded.editing,
                    revealed_row_id = excluded.revealed_row_id, seen_through = excluded.seen_through,
                    unseen_missed = excluded.unseen_missed
                """, listId, version, state.editing, state.revealedRowId, state.seenThrough,
                recorded?.unseenMissed ?? unseen, now)
        }
    }

    /// How the badge changes when the seen mark moves from `old` to `new`: minus the live missed
    /// calls the mark passed over (plus, for a mark moved back). One range of the `calls_view`
    /// index, between the two marks, never the whole list.
    private func missedBetween(_ row: ListRow, _ old: Int64, _ new: Int64) throws -> Int {
        let result = try connection.query(
            """
            SELECT count(*) FROM calls
            WHERE list_id = $1 AND "timestamp" > $2 AND "timestamp" <= $3 AND missed AND deleted_version IS NULL
                AND created_version >= $4
            """, row.id, min(old, new), max(old, new), row.liveFloor)
        let count = result.count > 0 ? try result.int(0, 0) : 0
        return new > old ? -count : count
    }

    /// The state and badge of `list` as this request leaves them so far, for its `list_versions` row.
    private func versionRow(of list: String) -> PGBatchOverlay.PendingVersionRow? {
        batch.overlay.rows[list].map { .init(state: $0.state, unseenMissed: $0.unseenMissed, createdAt: now) }
    }

    func forgetList(_ list: String) throws {
        try guarded {
            guard try hasAnythingToForget(list) else { return }
            try immediate()
            let (listId, version) = try newVersion(of: list)
            // The new version goes out now: the UPDATE below sets the count outright.
            try batch.flush(on: connection)
            // The calls stay, hidden by the new forget floor, until the pruner removes them in
            // small chunks (`purge_below`): deleting a million here held the list's lock for seconds.
            // Those this request inserted share the new version, above the floor: they go now.
            if let own = inserted.removeValue(forKey: listId) {
                try connection.query(
                    """
                    DELETE FROM calls
                    WHERE list_id = $1 AND call_id = ANY($2::text[]) AND deleted_version IS NULL AND created_version = $3
                    """, listId, PGArray(own), version)
            }
            try connection.query("DELETE FROM list_versions WHERE list_id = $1", listId)
            // A clear's hidden calls are a forget's leftovers now: the forget floor hides them.
            try connection.query("DELETE FROM list_clears WHERE list_id = $1", listId)
            // The stored replies hold call data the forget must not leave behind.
            try connection.query("DELETE FROM idempotency_keys WHERE list = $1", list)
            try connection.query(
                """
                INSERT INTO list_versions (list_id, version, editing, revealed_row_id, unseen_missed, created_at)
                VALUES ($1, $2, false, NULL, 0, $3)
                """, listId, version, now)
            try connection.query(
                """
                UPDATE lists SET forgotten_below = $1, editing = false, revealed_row_id = NULL, call_count = 0,
                    seen_through = 0, purge_below = $1, unseen_missed = 0, cleared_below = 0
                WHERE id = $2
                """, version, listId)
            batch.overlay.rows[list]?.forgottenBelow = version
            batch.overlay.rows[list]?.purgeBelow = version
            batch.overlay.rows[list]?.clearedBelow = 0
            needsPruning.append(listId)
            batch.overlay.rows[list]?.state = ListState()
            batch.overlay.rows[list]?.callCount = 0
            batch.overlay.rows[list]?.unseenMissed = 0
            batch.overlay.calls[listId] = nil
        }
    }

    /// Runs under the list's name lock (`PGBatchLocks`), so no other instance creates it meanwhile.
    func insertList(_ list: String) throws -> Int64 {
        try immediate()
        let inserted = try connection.query(
            """
            INSERT INTO lists (name, version, forgotten_below, editing, revealed_row_id, call_count)
            VALUES ($1, 0, 0, false, NULL, 0) RETURNING id
            """, list)
        guard inserted.count == 1 else { throw StoreError.corruptRow("lists insert returned no id") }
        let listId = try inserted.int64(0, 0)
        try connection.query(
            """
            INSERT INTO list_versions (list_id, version, editing, revealed_row_id, unseen_missed, created_at)
            VALUES ($1, 0, false, NULL, 0, $2)
            """, listId, now)
        batch.overlay.rows[list] = ListRow(
            id: listId, version: 0, forgottenBelow: 0, prunedBelow: 0, state: ListState(), callCount: 0)
        batch.overlay.calls[listId] = [:]
        return listId
    }

    /// Held back: the batch's one UPDATE of `lists` sets it.
    func setVersion(_ version: Int64, of listId: Int64, list: String) throws {
        batch.overlay.rows[list]?.version = version
        batch.overlay.pendingListChanges.append(.init(listId: listId, version: version, countDelta: 0))
    }
}
