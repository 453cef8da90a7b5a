import RecentsCore
import RecentsStore

/// The bodies of every write, run by the store's writer inside one savepoint each: the rules
/// come from Core, the persistence from the store, and a thrown `APIError` undoes just this request.
enum ListCommands {
    /// The version a reply names: the new one if this request changed the list, else the unchanged one.
    struct Versioned<Value: Sendable>: Sendable {
        var value: Value
        var versionBefore: Int64
    }

    /// Stores calls (the stored or already stored ones, in request order); an id that exists with identical content is an idempotent retry, with other content 409.
    static func postCalls(_ drafts: [CallDraft], list: String, tx: any StoreWriter) throws -> Versioned<[Call]> {
        let before = try tx.listInfo(list).version
        var stored: [Call] = []
        var inserted: [String: Call] = [:]
        var fresh: [Call] = []
        stored.reserveCapacity(drafts.count)
        for draft in drafts {
            let id = try draft.id ?? newCallId(list: list, tx: tx, taken: inserted)
            let call = draft.call(id: id)
            let known = try inserted[id] ?? tx.call(id, in: list)
            if let existing = known {
                guard existing == call else {
                    throw APIError.conflict("call '\(id)' already exists in list '\(list)' with different content")
                }
                stored.append(existing)
                continue
            }
            inserted[id] = call
            fresh.append(call)
            stored.append(call)
        }
        if !fresh.isEmpty { try tx.insertCalls(fresh, into: list) }
        return Versioned(value: stored, versionBefore: before)
    }

    /// A server-made id: `c-` and 12 random base-36 characters, not live in the list.
    private static func newCallId(list: String, tx: any StoreWriter, taken: [String: Call]) throws -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
        var generator = SystemRandomNumberGenerator()
        while true {
            var bytes: [UInt8] = Array("c-".utf8)
            for _ in 0..<12 { bytes.append(alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))]) }
            let id = String(decoding: bytes, as: UTF8.self)
            if taken[id] == nil, try tx.call(id, in: list) == nil { return id }
        }
    }

    /// Deletes the given calls of a list and clears a `revealedRowId` that named one of them.
    @discardableResult
    static func deleteCalls(_ ids: [String], list: String, tx: any StoreWriter) throws -> [String] {
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
        if !mine.isEmpty { _ = try deleteCalls(mine, list: peer, tx: tx) }
    }

    /// `DELETE .../calls/{callId}`.
    static func deleteCall(_ id: String, list: String, tx: any StoreWriter) throws -> Versioned<Void> {
        let before = try tx.listInfo(list).version
        guard try !deleteCalls([id], list: list, tx: tx).isEmpty else {
            throw APIError.notFound("no call '\(id)' in list '\(list)'")
        }
        return Versioned(value: (), versionBefore: before)
    }

    /// `DELETE /v1/lists/{list}`: forget calls, state and history, as one new version.
    static func forgetList(_ list: String, tx: any StoreWriter) throws -> Versioned<Void> {
        let before = try tx.listInfo(list).version
        try tx.forgetList(list)
        return Versioned(value: (), versionBefore: before)
    }

    /// Applies a state change from Core's rules, writing only when something changed.
    private static func apply(_ change: StateChange, list: String, tx: any StoreWriter) throws {
        if change.changed { try tx.setState(change.state, of: list) }
    }

    /// `PUT .../rows/{rowId}/reveal`: opening always wins; closing applies only to the open row.
    static func reveal(
        rowId: String, revealed: Bool, list: String, tx: any StoreWriter
    ) throws -> Versioned<StateChange> {
        let info = try tx.listInfo(list)
        guard try tx.call(rowId, in: list) != nil else {
            throw APIError.notFound("no row '\(rowId)' in list '\(list)'")
        }
        let change = info.state.revealing(rowId: rowId, revealed: revealed)
        try apply(change, list: list, tx: tx)
        return Versioned(value: change, versionBefore: info.version)
    }

    /// `PUT .../editing`: "Done" also closes the open row.
    static func setEditing(_ editing: Bool, list: String, tx: any StoreWriter) throws -> Versioned<StateChange> {
        let info = try tx.listInfo(list)
        let change = info.state.settingEditing(editing)
        try apply(change, list: list, tx: tx)
        return Versioned(value: change, versionBefore: info.version)
    }

    /// `POST .../gesture`: the release decided by Core's thresholds, applied as a reveal or a close.
    static func gesture(
        _ gesture: Gesture, rowId: String, list: String, tx: any StoreWriter
    ) throws -> Versioned<GestureDecision> {
        let info = try tx.listInfo(list)
        guard try tx.call(rowId, in: list) != nil else {
            throw APIError.notFound("no row '\(rowId)' in list '\(list)'")
        }
        let decision = gesture.decide(optionCount: RowOption.rowOptions.count)
        let change = info.state.revealing(rowId: rowId, revealed: decision.outcome == .open)
        try apply(change, list: list, tx: tx)
        return Versioned(value: decision, versionBefore: info.version)
    }

    /// `POST .../rows/{rowId}/options/delete`: removes every call of the row as the view
    /// (filter, tz; no window) groups it, and for `everyone` the same ids from the peer's list.
    static func deleteRow(
        rowId: String, filter: CallFilter, tz: Int, scope: DeleteScope, list: String, tx: any StoreWriter
    ) throws -> Versioned<[String]> {
        let info = try tx.listInfo(list)
        let calls = try tx.calls(in: list, at: info.version, filter: filter)
        guard let row = RowBuilder.row(id: rowId, orderedCalls: calls, state: info.state, filter: filter, tz: tz)
        else { throw APIError.notFound("no row '\(rowId)' in list '\(list)' for filter=\(filter.rawValue) tz=\(tz)") }
        let deleted = try deleteCalls(row.callIds, list: list, tx: tx)
        if scope == .everyone, row.peer.id != list, try tx.listInfo(row.peer.id).exists {
            try deletePeerCopies(row.callIds, peer: row.peer.id, caller: list, tx: tx)
        }
        return Versioned(value: deleted, versionBefore: info.version)
    }

    /// `POST .../clear` ("Delete all"): every call goes, the open row closes, editing stays.
    static func clear(scope: DeleteScope, list: String, tx: any StoreWriter) throws -> Versioned<[String]> {
        let info = try tx.listInfo(list)
        var idsByPeer: [String: [String]] = [:]
        var ids: [String] = []
        for call in try tx.calls(in: list, at: info.version, filter: .all) {
            ids.append(call.id)
            idsByPeer[call.peer.id, default: []].append(call.id)
        }
        let deleted = try deleteCalls(ids, list: list, tx: tx)
        var state = try tx.listInfo(list).state
        if state.revealedRowId != nil {
            state.revealedRowId = nil
            try tx.setState(state, of: list)
        }
        if scope == .everyone {
            for (peer, peerIds) in idsByPeer.sorted(by: { $0.key < $1.key }) where peer != list {
                if try tx.listInfo(peer).exists { try deletePeerCopies(peerIds, peer: peer, caller: list, tx: tx) }
            }
        }
        return Versioned(value: deleted, versionBefore: info.version)
    }
}
