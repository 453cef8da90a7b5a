/// What a shard's write transaction does for the outbox of "Delete for everyone" across shards
/// (`OutboxDrainer`); PostgreSQL's `PGWriteTransaction` is the one engine that shards.
protocol OutboxTransaction: AnyObject {
    /// Records, in this request's transaction, that `peer` (on another shard) is to lose those
    /// of `ids` whose copy names `caller`: it commits with the caller's own change or not at all.
    func enqueuePeerDeletion(_ ids: [String], peer: String, caller: String) throws

    /// Records in this request's transaction that the entry `token` is applied here, to `list`
    /// (whose bucket's moves take the token along); false when it was already (the caller then
    /// applies nothing).
    func markApplied(token: String, to list: String) throws -> Bool
}
