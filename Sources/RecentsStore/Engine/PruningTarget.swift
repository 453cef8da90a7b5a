/// The statements of pruning on one engine's write connection, for the shared `Pruner`.
///
/// Owned by the writer thread; not Sendable.
protocol PruningTarget: SendableMetatype {
    /// Whether a failed chunk keeps the rows it removed before failing (each statement commits
    /// on its own) rather than rolling them back.
    var keepsPartialChunks: Bool { get }

    /// Runs one pruning chunk: with `ownTransaction` in its own transaction, otherwise inside the
    /// caller's open transaction, where a failure must not fail what the caller does.
    /// Returns false when the chunk failed.
    func pruningChunk(ownTransaction: Bool, _ body: () throws -> Void) -> Bool

    /// The id of the first list after `id` in id order, nil past the last.
    func listId(after id: Int64) throws -> Int64?

    /// Raises list `listId`'s pruning floor to its horizon `max(forgotten_below, pruned_below,
    /// version - retain)` and returns that horizon with the list's `purge_below`; nil when the
    /// list has no row. The floor is recorded before anything is deleted: versions below it stop
    /// being answered even if the window is widened later, since their rows are (about to be) gone.
    func raiseFloor(of listId: Int64, retain: Int64) throws -> (horizon: Int64, purgeBelow: Int64)?

    /// Deletes up to `limit` calls of `listId` created below `purgeBelow` (a forget's leftovers,
    /// hidden from every read); returns how many.
    func deleteLeftovers(of listId: Int64, below purgeBelow: Int64, limit: Int) throws -> Int

    /// Records that no leftover of the forget at `purgeBelow` remains (`purge_below` back to 0),
    /// unless a newer forget set it meanwhile.
    func endPurge(of listId: Int64, below purgeBelow: Int64) throws

    /// The oldest clear of `listId` whose hidden calls are not all marked deleted yet
    /// (`list_clears`), nil when none waits.
    func oldestClear(of listId: Int64) throws -> Int64?

    /// Marks up to `limit` calls of `listId` that `clear` hides deleted at `clear` (live, created
    /// below it); returns how many. Run for the oldest clear first, so each call gets the first
    /// clear above its `created_version`.
    func markCleared(of listId: Int64, by clear: Int64, limit: Int) throws -> Int

    /// Records that every call `clear` hid is marked: its `list_clears` row goes, and
    /// `lists.cleared_below` back to 0 unless a newer clear set it meanwhile.
    func endClear(of listId: Int64, at clear: Int64) throws

    /// Deletes up to `limit` calls of `listId` deleted at or before `horizon`; returns how many.
    func deleteCalls(of listId: Int64, deletedBy horizon: Int64, limit: Int) throws -> Int

    /// Deletes up to `limit` state rows of `listId` older than the newest one at or below
    /// `horizon` (that one holds the state from `horizon` up to the next change); returns how many.
    func deleteStates(of listId: Int64, before horizon: Int64, limit: Int) throws -> Int

    /// Deletes up to `limit` idempotency keys recorded at or before `cutoff` (unix seconds),
    /// oldest first; returns how many.
    func deleteKeys(recordedBy cutoff: Int64, limit: Int) throws -> Int
}
