import RecentsCore

/// The rules every deletion shares (a call, a row, "Delete all", and "for everyone"), run inside
/// a write body. They live in the store, not the API, because a sharded store applies the peer's
/// half of "for everyone" itself, later, on the peer's shard, from its outbox (`OutboxDrainer`),
/// and the same rule must hold there as in one request on one database.
public enum CallDeletion {
    /// Deletes the live calls among `ids` from `list` and closes its open row when it named one;
    /// returns the ids that were live and are now deleted.
    @discardableResult
    public static func delete(_ ids: [String], from list: String, tx: any StoreWriter) throws -> [String] {
        let deleted = try tx.deleteCalls(ids: ids, from: list)
        guard !deleted.isEmpty else { return [] }
        let change = try tx.listInfo(list).state.removingCalls(deleted)
        if change.changed { try tx.setState(change.state, of: list) }
        return deleted
    }

    /// "Delete for everyone" in the peer's list: only the copies that name the caller's list as
    /// their peer (issue 10). Otherwise anyone could post a fake call carrying a victim's call id
    /// with the victim as peer, delete it for everyone and so delete the victim's own call.
    /// Nothing happens when `peer` is the caller or does not exist.
    public static func deletePeerCopies(_ ids: [String], peer: String, caller: String, tx: any StoreWriter) throws {
        guard peer != caller, try tx.listInfo(peer).exists else { return }
        let mine = try ids.filter { id in try tx.call(id, in: peer)?.peer.id == caller }
        if !mine.isEmpty { try delete(mine, from: peer, tx: tx) }
    }
}
