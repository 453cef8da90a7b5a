import Glibc

/// Removes history no retained version needs, and idempotency keys past their 24 hours, in small
/// chunks on the writer thread.
///
/// Retention is a rule on version numbers (`max(forgottenBelow, current - retainVersions)`), so
/// pruning never changes an answer (except after the window is widened: `lists.pruned_below`
/// then keeps already-pruned versions unretained); it only removes rows below each list's horizon H:
/// `list_versions` rows older than the newest one at or below H (that one holds the state of
/// every version from H up to the next change), and calls deleted at or before H (such a call is
/// not live at any version ≥ H). Lists changed since the last look are marked dirty; at start (and
/// when the retention changes) every list is scanned once, in id order.
final class Pruner {
    /// Rows per pruning chunk piggybacked on a write batch's transaction.
    static let batchBudget = 200
    /// Rows per pruning transaction while the writer is idle.
    static let idleBudget = 2000
    /// Lists looked at per pruning chunk.
    static let listsPerStep = 64

    private let shared: StoreShared
    private var dirty = Set<Int64>()
    /// The next list id of the full scan, or nil when no full scan is pending.
    private var scanAfter: Int64? = 0
    /// When (unix seconds) to look for expired idempotency keys next: a look finding none waits
    /// a minute, so a busy writer does not pay a query per batch for them.
    private var keysDueAt: Int64 = 0
    /// Seconds between looks for expired idempotency keys.
    static let keyCheckInterval: Int64 = 60

    init(shared: StoreShared) { self.shared = shared }

    var hasWork: Bool { !dirty.isEmpty || scanAfter != nil || Int64(time(nil)) >= keysDueAt }

    func markDirty(_ listIds: some Sequence<Int64>) { dirty.formUnion(listIds) }

    /// Schedules a scan of every list (e.g. after the retention changed).
    func scanAll() {
        scanAfter = 0
        keysDueAt = 0
    }

    /// Prunes up to about `budget` rows. With `ownTransaction`, wraps the chunk in a
    /// `BEGIN IMMEDIATE` … `COMMIT`; otherwise runs inside the caller's transaction under a savepoint.
    /// Errors are swallowed: pruning is retried later and never affects answers.
    /// Returns the number of rows removed, nil when the chunk failed (and was rolled back).
    @discardableResult
    func step(_ connection: SQLiteConnection, budget: Int, ownTransaction: Bool) -> Int? {
        guard hasWork else { return 0 }
        var removed = 0
        var visited: [Int64] = []
        let now = Int64(time(nil))
        var keysDone = false
        // Bounded by rows and by lists, so a scan over many lists with nothing to prune does not
        // hold the write lock for long either.
        let chunk = {
            var lists = 0
            while removed < budget, lists < Self.listsPerStep, let listId = try self.nextList(connection) {
                lists += 1
                visited.append(listId)
                let (count, done) = try self.prune(listId, connection: connection, limit: budget - removed)
                removed += count
                if !done { self.dirty.insert(listId) }
            }
            if removed < budget, now >= self.keysDueAt {
                let limit = budget - removed
                let keys = try Self.pruneExpiredKeys(connection, now: now, limit: limit)
                removed += keys
                keysDone = keys < limit
            }
        }
        let succeeded: Bool
        if ownTransaction {
            succeeded = (try? connection.transaction(.immediate, chunk)) != nil
        } else {
            // A savepoint keeps a pruning failure from failing the write batch it rides on.
            succeeded = (try? connection.savepoint("prune", chunk).get()) != nil
        }
        guard succeeded else {
            dirty.formUnion(visited)  // rolled back: look at these lists again later
            return nil
        }
        if keysDone { keysDueAt = now + Self.keyCheckInterval }
        if removed > 0 { shared.metrics.withLock { $0.prunedRows += removed } }
        return removed
    }

    /// Prunes until nothing is left (tests, maintenance), each chunk in its own transaction;
    /// stops at the first failing chunk and returns false then.
    @discardableResult
    func pruneAll(_ connection: SQLiteConnection) -> Bool {
        scanAll()
        while hasWork {
            if step(connection, budget: Self.idleBudget, ownTransaction: true) == nil { return false }
        }
        return true
    }

    /// Removes up to `limit` idempotency keys older than the retention window, oldest first;
    /// returns how many (lookups already ignore them, so when this runs changes no answer).
    private static func pruneExpiredKeys(_ connection: SQLiteConnection, now: Int64, limit: Int) throws -> Int {
        try connection.run(
            """
            DELETE FROM idempotency_keys WHERE rowid IN
                (SELECT rowid FROM idempotency_keys WHERE created_at <= ? ORDER BY created_at LIMIT ?)
            """, now - IdempotentReply.retentionSeconds, limit)
    }

    private func nextList(_ connection: SQLiteConnection) throws -> Int64? {
        if let listId = dirty.popFirst() { return listId }
        guard let after = scanAfter else { return nil }
        let next = try connection.with("SELECT id FROM lists WHERE id > ? ORDER BY id LIMIT 1", after) {
            try $0.step() ? $0.int64(0) : nil
        }
        scanAfter = next
        return next
    }

    /// Removes up to `limit` rows of list `listId` below its horizon; `done` when none remain.
    private func prune(_ listId: Int64, connection: SQLiteConnection, limit: Int) throws -> (count: Int, done: Bool) {
        let retain = Int64(max(0, shared.retainVersions.load(ordering: .relaxed)))
        let horizon = try connection.with(
            "SELECT max(forgotten_below, pruned_below, version - ?) FROM lists WHERE id = ?", retain, listId
        ) {
            try $0.step() ? $0.int64(0) : nil
        }
        guard let horizon else { return (0, true) }
        // Record the floor first: versions below it stop being answered even if the window is
        // widened later, since their rows are (about to be) gone.
        try connection.run(
            "UPDATE lists SET pruned_below = ? WHERE id = ? AND pruned_below < ?", horizon, listId, horizon)
        let calls = try connection.run(
            """
            DELETE FROM calls WHERE rowid IN
                (SELECT rowid FROM calls WHERE list_id = ? AND deleted_version <= ? LIMIT ?)
            """, listId, horizon, limit)
        let versionLimit = limit - calls
        let versions =
            versionLimit > 0
            ? try connection.run(
                """
                DELETE FROM list_versions WHERE list_id = ?1 AND version IN
                    (SELECT version FROM list_versions WHERE list_id = ?1 AND version <
                        (SELECT max(version) FROM list_versions WHERE list_id = ?1 AND version <= ?2)
                     LIMIT ?3)
                """, listId, horizon, versionLimit) : 0
        return (calls + versions, calls + versions < limit)
    }
}
