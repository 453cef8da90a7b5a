/// `POST /v1/lists/{list}/clear` ("Delete all"): every call goes, the open row closes, editing stays.
enum ClearList {
    static func make(_ service: Service) -> Endpoint {
        service.writes.endpoint(
            Command(
                .POST, "/v1/lists/{list}/clear",
                parse: { exchange throws(APIError) in try ListRequest(exchange, body: try exchange.deleteScope()) },
                run: { request, tx in
                    let list = request.list
                    let info = try tx.listInfo(list)
                    var idsByPeer: [String: [String]] = [:]
                    var ids: [String] = []
                    for call in try tx.calls(in: list, at: info.version, filter: .all) {
                        ids.append(call.id)
                        idsByPeer[call.peer.id, default: []].append(call.id)
                    }
                    let deleted = try CallDeletion.delete(ids, from: list, tx: tx)
                    var state = try tx.listInfo(list).state
                    if state.revealedRowId != nil {
                        state.revealedRowId = nil
                        try tx.setState(state, of: list)
                    }
                    if request.body == .everyone {
                        for (peer, peerIds) in idsByPeer.sorted(by: { $0.key < $1.key }) where peer != list {
                            if try tx.listInfo(peer).exists {
                                try CallDeletion.deletePeerCopies(peerIds, peer: peer, caller: list, tx: tx)
                            }
                        }
                    }
                    return Versioned(value: deleted, versionBefore: info.version)
                },
                members: ConfirmOption.deletedCallIds))
    }
}
