import Glibc

/// Removes history no retained version needs, and idempotency keys past their 24 hours, in small
/// chunks on the writer thread, on either engine (`Target` runs the statements).
///
/// Retention is a rule on version numbers (`max(forgottenBelow, current - retainVersions)`), so
/// pruning never changes an answer (except after the window is widened: `lists.pruned_below`
/// then keeps already-pruned versions unretained); it only removes rows below each list's horizon H:
/// `list_versions` rows older than the newest one at or below H (that one holds the state of
/// every version from H up to the next change), and calls deleted at or before H (such a call is
/// not live at any version ≥ H). Lists changed since the last look are marked dirty; at start (and
/// when the retention changes) every list is scanned once, in id order. On PostgreSQL another
/// instance pruning the same list at once only deletes the same rows.
final class Pruner<Target: PruningTarget> {
    /// Rows per pruning chunk piggybacked on (or following) a write batch.
    static var batchBudget: Int { 200 }
    /// Rows per pruning chunk while the writer is idle.
    static var idleBudget: Int { 2000 }
    /// Lists looked at per pruning chunk.
    static var listsPerStep: Int { 64 }
    /// Calls a chunk marks deleted for a clear, idle or not; the chunk then ends. A marked call
    /// rewrites its entries in three indexes at scattered pages (SQLite) or writes a new row
    /// version with its index entries (PostgreSQL): about three pages of log each, which the
    /// chunk's commit (or the write batch it rides on) syncs. Idle chunks of 2,000 (~24 MB of
    /// WAL) and batches carrying 200 held the writer while another list's writes waited 150-400 ms.
    static var markBudget: Int { 50 }
    /// Seconds between looks for expired idempotency keys.
    static var keyCheckInterval: Int64 { 60 }

    private let shared: StoreShared
    private var dirty = Set<Int64>()
    /// The next list id of the full scan, or nil when no full scan is pending.
    private var scanAfter: Int64? = 0
    /// When (unix seconds) to look for expired idempotency keys next: a look finding none waits
    /// a minute, so a busy writer does not pay a query per batch for them.
    private var keysDueAt: Int64 = 0

    init(shared: StoreShared) { self.shared = shared }

    var hasWork: Bool { !dirty.isEmpty || scanAfter != nil || Int64(time(nil)) >= keysDueAt }

    func markDirty(_ listIds: some Sequence<Int64>) { dirty.formUnion(listIds) }

    /// Schedules a scan of every list (e.g. after the retention changed).
    func scanAll() {
        scanAfter = 0
        keysDueAt = 0
    }

    /// Prunes up to about `budget` rows, in a chunk `target` wraps (see
    /// `PruningTarget.pruningChunk`). Errors are swallowed: pruning is retried later and never
    /// affects answers. Returns the number of rows removed, nil when the chunk failed.
    @discardableResult
    func step(_ target: Target, budget: Int, ownTransaction: Bool) -> Int? {
        guard hasWork else { return 0 }
        var removed = 0
        var visited: [Int64] = []
        let now = Int64(time(nil))
        var keysDone = false
        // Bounded by rows and by lists, so a scan over many lists with nothing to prune does not
        // hold the write lock for long either.
        let succeeded = target.pruningChunk(ownTransaction: ownTransaction) {
            var lists = 0
            var markedFull = false
            while removed < budget, !markedFull, lists < Self.listsPerStep, let listId = try nextList(target) {
                lists += 1
                visited.append(listId)
                let (count, done, full) = try prune(listId, target: target, limit: budget - removed)
                removed += count
                markedFull = full
                if !done { dirty.insert(listId) }
            }
            if removed < budget, !markedFull, now >= keysDueAt {
                let limit = budget - removed
                let keys = try target.deleteKeys(recordedBy: now - IdempotentReply.retentionSeconds, limit: limit)
                removed += keys
                keysDone = keys < limit
            }
        }
        if succeeded, keysDone { keysDueAt = now + Self.keyCheckInterval }
        if succeeded || target.keepsPartialChunks, removed > 0 {
            shared.metrics.withLock { $0.prunedRows += removed }
        }
        guard succeeded else {
            dirty.formUnion(visited)  // undone or cut short: look at these lists again later
            return nil
        }
        return removed
    }

    /// Prunes until nothing is left (tests, maintenance), each chunk in its own transaction;
    /// stops at the first failing chunk and returns false then.
    @discardableResult
    func pruneAll(_ target: Target) -> Bool {
        scanAll()
        while hasWork {
            if step(target, budget: Self.idleBudget, ownTransaction: true) == nil { return false }
        }
        return true
    }

    private func nextList(_ target: Target) throws -> Int64? {
        if let listId = dirty.popFirst() { return listId }
        guard let after = scanAfter else { return nil }
        let next = try target.listId(after: after)
        scanAfter = next
        return next
    }

    /// Removes up to `limit` rows of list `listId` below its horizon, a forget's leftovers first,
    /// then marks a clear's hidden calls deleted; `done` when none remain, `full` when it marked
    /// `markBudget` calls (the chunk ends there).
    private func prune(_ listId: Int64, target: Target, limit: Int) throws -> (count: Int, done: Bool, full: Bool) {
        let retain = Int64(max(0, shared.retainVersions.load(ordering: .relaxed)))
        guard let (horizon, purgeBelow) = try target.raiseFloor(of: listId, retain: retain) else {
            return (0, true, false)
        }
        var leftovers = 0
        if purgeBelow > 0 {
            leftovers = try target.deleteLeftovers(of: listId, below: purgeBelow, limit: limit)
            guard leftovers < limit else { return (leftovers, false, false) }
            try target.endPurge(of: listId, below: purgeBelow)
        }
        let markLimit = min(limit - leftovers, Self.markBudget)
        let marked = try markCleared(listId, target: target, limit: markLimit)
        guard marked < markLimit else { return (leftovers + marked, false, marked == Self.markBudget) }
        let calls = try target.deleteCalls(of: listId, deletedBy: horizon, limit: limit - leftovers - marked)
        let versionLimit = limit - leftovers - marked - calls
        let versions = versionLimit > 0 ? try target.deleteStates(of: listId, before: horizon, limit: versionLimit) : 0
        let removed = leftovers + marked + calls + versions
        return (removed, removed < limit, false)
    }

    /// Marks up to `limit` calls hidden by the list's clears deleted, oldest clear first, ending
    /// each clear once none of its calls is left; returns how many it marked.
    private func markCleared(_ listId: Int64, target: Target, limit: Int) throws -> Int {
        var marked = 0
        while marked < limit, let clear = try target.oldestClear(of: listId) {
            let count = try target.markCleared(of: listId, by: clear, limit: limit - marked)
            marked += count
            guard marked < limit else { break }
            try target.endClear(of: listId, at: clear)
        }
        return marked
    }
}
