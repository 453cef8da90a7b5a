import RecentsStore

/// `POST /v1/lists/{list}/clear` ("Delete all"): every call goes, the open row closes, editing stays.
///
/// For `scope: me` the writer's work is O(1) (`StoreWriter.clearCalls`): the reply's ids are read
/// first, outside the writer, at the list's version then, and used if the list is still at that
/// version when the body runs (else the body reads them itself). With `Prefer: return=minimal`
/// the reply names no ids, so none are read and the whole request is O(1). `everyone` still
/// deletes each peer's copies call by call inside the write: the peers' lists differ, so that is O(n).
enum ClearList {
    static func make(_ service: Service) -> Endpoint {
        service.writes.endpoint(
            Command(
                .POST, "/v1/lists/{list}/clear",
                parse: { exchange throws(APIError) in
                    let scope = try exchange.deleteScope()
                    return try ListRequest(
                        exchange, body: ClearBody(scope: scope, minimal: exchange.prefersMinimalReturn))
                },
                run: { request, tx in try run(request.list, request.body, tx: tx) },
                members: { ids, json in if let ids { ConfirmOption.deletedCallIds(ids, &json) } },
                headers: { request in request.body.minimal ? [ReturnPreference.minimalApplied] : [] },
                prefetch: { request, reader in
                    var known = request
                    known.body = try prefetch(request.list, request.body, reader: reader)
                    return known
                }))
    }

    /// The write: the ids read before it if the list is still at their version (else read now;
    /// none for a minimal reply of `me`), then the O(1) clear, the open row closed, and for
    /// `everyone` each peer's copies. The value is nil when the reply names no ids.
    static func run(_ list: String, _ body: ClearBody, tx: any StoreWriter) throws -> Versioned<[String]?> {
        let info = try tx.listInfo(list)
        var ids: [String] = []
        var idsByPeer: [String: [String]] = [:]
        if body.scope == .me, body.minimal {
            // Nobody reads the ids: the reply leaves them out and only `everyone` needs the peers.
        } else if body.scope == .me, let known = body.known, known.version == info.version {
            ids = known.ids
        } else if body.scope == .me {
            ids = try tx.callIds(in: list, at: info.version)
        } else {
            for call in try tx.calls(in: list, at: info.version, filter: .all) {
                ids.append(call.id)
                idsByPeer[call.peer.id, default: []].append(call.id)
            }
        }
        try tx.clearCalls(of: list)
        var state = try tx.listInfo(list).state
        if state.revealedRowId != nil {
            state.revealedRowId = nil
            try tx.setState(state, of: list)
        }
        if body.scope == .everyone {
            for (peer, peerIds) in idsByPeer.sorted(by: { $0.key < $1.key }) {
                try tx.deletePeerCopies(peerIds, peer: peer, caller: list)
            }
        }
        return Versioned(value: body.minimal ? nil : ids, versionBefore: info.version)
    }

    /// The read before the write, outside the writer: the live ids in reply order at the list's
    /// version now, ids only (`callIds`: no call row is read). Only for `me` with the ids in the
    /// reply: `everyone` needs each call's peer inside the write anyway.
    static func prefetch(_ list: String, _ body: ClearBody, reader: any StoreReader) throws -> ClearBody {
        guard body.scope == .me, !body.minimal else { return body }
        let version = try reader.listInfo(list).version
        var known = body
        known.known = (version, try reader.callIds(in: list, at: version))
        return known
    }
}

/// The body of "Delete all": who loses the calls, and the ids read before the write.
struct ClearBody: Sendable {
    var scope: DeleteScope
    /// `Prefer: return=minimal`: the reply leaves `deletedCallIds` out.
    var minimal = false
    /// The live calls' ids at `version`, newest first, read before the write (nil: not read).
    var known: (version: Int64, ids: [String])?
}
