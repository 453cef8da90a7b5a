import RecentsCore
import RecentsJSON
import RecentsStore

/// `POST /v1/lists/{list}/rows/{rowId}/options/{key}`: confirms an option; `delete` removes every
/// call of the row as the view (filter, tz; no window) groups it, and for `everyone` the same ids
/// from the peer's list.
enum ConfirmOption {
    static func make(_ service: Service) -> Endpoint {
        service.writes.endpoint(
            Command(
                .POST, "/v1/lists/{list}/rows/{rowId}/options/{key}",
                parse: { exchange throws(APIError) in
                    try ItemRequest(exchange, or: "no such row", body: try RowDeletion(exchange))
                },
                run: { row, tx in
                    let list = row.list
                    let filter = row.body.parameters.filter
                    let info = try tx.listInfo(list)
                    let calls = try tx.calls(in: list, at: info.version, filter: filter)
                    guard
                        let found = RowBuilder.row(
                            id: row.id, orderedCalls: calls, state: info.state, filter: filter,
                            tz: row.body.parameters.tz)
                    else {
                        throw ListReads.noRow(row.id, in: list, parameters: row.body.parameters)
                    }
                    let deleted = try CallDeletion.delete(found.callIds, from: list, tx: tx)
                    if row.body.scope == .everyone {
                        try tx.deletePeerCopies(found.callIds, peer: found.peer.id, caller: list)
                    }
                    return Versioned(value: deleted, versionBefore: info.version)
                },
                members: deletedCallIds))
    }

    /// `"deletedCallIds": [...]`, the reply member of every deletion of rows.
    @Sendable static func deletedCallIds(_ deleted: [String], _ json: inout JSONWriter) {
        json.key("deletedCallIds")
        json.strings(deleted)
    }
}

/// `POST …/options/delete`: the view that groups the row, and who loses its calls.
struct RowDeletion: Sendable {
    var parameters: ViewParameters
    var scope: DeleteScope

    /// Reads `{key}` (404 unless it is an option rows have), the view, then the optional scope body.
    init(_ exchange: Exchange) throws(APIError) {
        let key = exchange.parameter(2)
        guard RowOption.rowOptions.contains(where: { $0.key == key }) else {
            throw .notFound("rows have no option '\(key)'")
        }
        parameters = try exchange.query.view()
        scope = try exchange.deleteScope()
    }
}
