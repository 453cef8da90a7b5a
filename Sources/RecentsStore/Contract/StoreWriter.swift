import RecentsCore

/// The mutations of one write request, plus every read at current versions (seeing this request's
/// own earlier changes).
///
/// Each list a request changes gets exactly one new version, assigned at its first effective
/// mutation and shared by all of its mutations in the request; a request that changes nothing
/// creates no version. A body that throws is undone alone. Valid only inside the write body.
public protocol StoreWriter: StoreReader {
    /// Adds `calls` to `list` at its new version.
    /// - Throws: `StoreError.constraint` when an id is live in the list already (the caller checks first).
    func insertCalls(_ calls: [Call], into list: String) throws

    /// Deletes the live calls among `ids` from `list`; returns the ids that were live and are now
    /// deleted, in the order given (duplicates and absent ids are skipped).
    @discardableResult
    func deleteCalls(ids: [String], from list: String) throws -> [String]

    /// Deletes every live call of `list` at its new version in O(1) ("Delete all"): from that
    /// version on they are hidden at once, earlier versions still see them, and the pruner marks
    /// them deleted later in small chunks. Nothing happens when the list has no live call.
    func clearCalls(of list: String) throws

    /// Sets the state of `list`; nothing happens when it already has this state.
    func setState(_ state: ListState, of list: String) throws

    /// Forgets `list`: a new version where it is empty and in the default state, below which no
    /// version is retained, and its recorded idempotent replies (they hold call data). Nothing
    /// happens when there is nothing to forget.
    func forgetList(_ list: String) throws

    /// The reply recorded for `key` in `list` less than `IdempotentReply.retentionSeconds` ago, if any.
    func idempotentReply(key: String, in list: String) throws -> IdempotentReply?

    /// Records `reply` for `key` in `list` with this request's changes (replacing an expired record).
    func recordIdempotentReply(_ reply: IdempotentReply, key: String, in list: String) throws

    /// "Delete for everyone" reaching `peer`: deletes those of `ids` whose copy in `peer` names
    /// `caller` as its peer (`CallDeletion`). A sharded store whose `peer` lives on another shard
    /// records it in this request's outbox instead, and applies it there after the commit.
    func deletePeerCopies(_ ids: [String], peer: String, caller: String) throws
}

extension StoreWriter {
    /// Deletes the copies in this transaction (every store of one database).
    public func deletePeerCopies(_ ids: [String], peer: String, caller: String) throws {
        try CallDeletion.deletePeerCopies(ids, peer: peer, caller: caller, tx: self)
    }
}
