/// Removes history no retained version needs, in small chunks on the writer thread: the same
/// rule as the SQLite `Pruner` (rows below each list's horizon `max(forgotten_below,
/// pruned_below, version - retainVersions)`).
///
/// Each statement commits on its own: the floor first (so a widened window never answers a
/// version whose rows are going), then bounded deletes. Answers never depend on pruning, and
/// another instance pruning the same list at once only deletes the same rows.
final class PGPruner {
    /// Rows per pruning chunk after a write batch.
    static let batchBudget = 200
    /// Rows per pruning chunk while the writer is idle.
    static let idleBudget = 2000
    /// Lists looked at per chunk.
    static let listsPerStep = 64

    private let shared: StoreShared
    private var dirty = Set<Int64>()
    private var scanAfter: Int64? = 0

    init(shared: StoreShared) { self.shared = shared }

    var hasWork: Bool { !dirty.isEmpty || scanAfter != nil }

    func markDirty(_ listIds: some Sequence<Int64>) { dirty.formUnion(listIds) }

    /// Schedules a scan of every list (at start, and after the retention changed).
    func scanAll() { scanAfter = 0 }

    /// Prunes up to about `budget` rows; false when a statement failed (retried later).
    func step(_ link: PGLink, budget: Int) -> Bool {
        guard hasWork else { return true }
        var removed = 0
        var lists = 0
        var current: Int64?
        do {
            let connection = try link.usable()
            while removed < budget, lists < Self.listsPerStep, let listId = try nextList(connection) {
                current = listId
                lists += 1
                let (count, done) = try prune(listId, connection: connection, limit: budget - removed)
                removed += count
                if !done { dirty.insert(listId) }
                current = nil
            }
        } catch {
            if let current { dirty.insert(current) }
            if removed > 0 { shared.metrics.withLock { $0.prunedRows += removed } }
            return false
        }
        if removed > 0 { shared.metrics.withLock { $0.prunedRows += removed } }
        return true
    }

    /// Prunes until nothing is left; false at the first failing chunk.
    func pruneAll(_ link: PGLink) -> Bool {
        scanAll()
        while hasWork {
            if !step(link, budget: Self.idleBudget) { return false }
        }
        return true
    }

    private func nextList(_ connection: PGConnection) throws -> Int64? {
        if let listId = dirty.popFirst() { return listId }
        guard let after = scanAfter else { return nil }
        let result = try connection.query("SELECT id FROM lists WHERE id > $1 ORDER BY id LIMIT 1", after)
        let next = result.count > 0 ? try result.int64(0, 0) : nil
        scanAfter = next
        return next
    }

    private func prune(_ listId: Int64, connection: PGConnection, limit: Int) throws -> (count: Int, done: Bool) {
        let retain = Int64(max(0, shared.retainVersions.load(ordering: .relaxed)))
        // The floor rises under the row's lock, so it is computed from the committed version.
        // Raising the floor takes the row's lock briefly; an unchanged floor writes nothing.
        var floor = try connection.query(
            """
            UPDATE lists SET pruned_below = GREATEST(forgotten_below, version - $2)
            WHERE id = $1 AND pruned_below < GREATEST(forgotten_below, version - $2) RETURNING pruned_below
            """, listId, retain)
        if floor.count == 0 {
            floor = try connection.query(
                "SELECT GREATEST(forgotten_below, pruned_below, version - $2) FROM lists WHERE id = $1", listId, retain)
        }
        guard floor.count > 0 else { return (0, true) }
        let horizon = try floor.int64(0, 0)
        let calls = try connection.query(
            """
            DELETE FROM calls WHERE id IN
                (SELECT id FROM calls WHERE list_id = $1 AND deleted_version <= $2 LIMIT $3)
            """, listId, horizon, limit
        ).affectedRows
        let versionLimit = limit - calls
        let versions =
            versionLimit > 0
            ? try connection.query(
                """
                DELETE FROM list_versions WHERE list_id = $1 AND version IN
                    (SELECT version FROM list_versions WHERE list_id = $1 AND version <
                        (SELECT max(version) FROM list_versions WHERE list_id = $1 AND version <= $2)
                     LIMIT $3)
                """, listId, horizon, versionLimit
            ).affectedRows : 0
        return (calls + versions, calls + versions < limit)
    }
}
