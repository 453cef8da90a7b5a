import RecentsCore
import RecentsStore

/// The rules every deletion shares (a call, a row, "Delete all", and "for everyone"), run inside
/// a write body: the calls go, and an open row that named one of them closes.
enum CallDeletion {
    /// Deletes the given calls of a list and clears a `revealedRowId` that named one of them;
    /// returns the ids that were live and are now deleted.
    @discardableResult
    static func delete(_ ids: [String], from list: String, tx: any StoreWriter) throws -> [String] {
        let deleted = try tx.deleteCalls(ids: ids, from: list)
        guard !deleted.isEmpty else { return [] }
        let change = try tx.listInfo(list).state.removingCalls(deleted)
        if change.changed { try tx.setState(change.state, of: list) }
        return deleted
    }

    /// "Delete for everyone" in the peer's list: only the copies that name the caller's list as
    /// their peer (issue 10). Otherwise anyone could post a fake call carrying a victim's call id
    /// with the victim as peer, delete it for everyone and so delete the victim's own call.
    static func deletePeerCopies(_ ids: [String], peer: String, caller: String, tx: any StoreWriter) throws {
        let mine = try ids.filter { id in try tx.call(id, in: peer)?.peer.id == caller }
        if !mine.isEmpty { _ = try delete(mine, from: peer, tx: tx) }
    }
}

/// Who a deletion reaches: only this list, or also the peer's list ("Delete for everyone").
enum DeleteScope: String, Sendable, CaseIterable {
    case me
    case everyone
}
