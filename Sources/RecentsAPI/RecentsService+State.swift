import HTTPServer
import RecentsCore
import RecentsJSON

// Contract section 3: reveal, editing, gestures and options.
extension RecentsService {
    /// `PUT /v1/lists/{list}/rows/{rowId}/reveal`.
    func reveal() -> Endpoint {
        command(
            .PUT, "/v1/lists/{list}/rows/{rowId}/reveal",
            parse: { exchange throws(APIError) in
                try ItemRequest(exchange, or: "no such row", body: try exchange.flag("revealed"))
            },
            run: { row, tx in try ListCommands.reveal(rowId: row.id, revealed: row.body, list: row.list, tx: tx) },
            members: Self.revealMembers)
    }

    /// `PUT /v1/lists/{list}/editing`.
    func setEditing() -> Endpoint {
        command(
            .PUT, "/v1/lists/{list}/editing",
            parse: { exchange throws(APIError) in try ListRequest(exchange, body: try exchange.flag("editing")) },
            run: { request, tx in try ListCommands.setEditing(request.body, list: request.list, tx: tx) },
            members: { change, json in json.state(change.state) })
    }

    /// `POST /v1/lists/{list}/rows/{rowId}/gesture`: the server decides how a swipe ends.
    func gesture() -> Endpoint {
        command(
            .POST, "/v1/lists/{list}/rows/{rowId}/gesture",
            parse: { exchange throws(APIError) in
                try ItemRequest(
                    exchange, or: "no such row", body: try RequestBodies.gesture(try exchange.requiredJSONBody()))
            },
            run: { row, tx in try ListCommands.gesture(row.body, rowId: row.id, list: row.list, tx: tx) },
            members: Self.gestureMembers)
    }

    /// `POST /v1/lists/{list}/rows/{rowId}/options/{key}`: confirms an option; `delete` removes the row's calls.
    func confirmOption() -> Endpoint {
        command(
            .POST, "/v1/lists/{list}/rows/{rowId}/options/{key}",
            parse: { exchange throws(APIError) in
                try ItemRequest(exchange, or: "no such row", body: try RowDeletion(exchange))
            },
            run: { row, tx in
                try ListCommands.deleteRow(
                    rowId: row.id, filter: row.body.parameters.filter, tz: row.body.parameters.tz,
                    scope: row.body.scope, list: row.list, tx: tx)
            },
            members: Self.deletedCallIds)
    }

    /// `POST /v1/lists/{list}/clear`: "Delete all".
    func clear() -> Endpoint {
        command(
            .POST, "/v1/lists/{list}/clear",
            parse: { exchange throws(APIError) in try ListRequest(exchange, body: try exchange.deleteScope()) },
            run: { request, tx in try ListCommands.clear(scope: request.body, list: request.list, tx: tx) },
            members: Self.deletedCallIds)
    }

    // MARK: - Reply members

    @Sendable private static func revealMembers(_ change: StateChange, _ json: inout JSONWriter) {
        json.key("revealedRowId")
        json.string(change.state.revealedRowId)
        json.comma()
        json.key("changed")
        json.bool(change.changed)
    }

    /// The decision, and the option a full swipe selected (`null` when none did).
    @Sendable private static func gestureMembers(_ decision: GestureDecision, _ json: inout JSONWriter) {
        json.key("outcome")
        json.string(decision.outcome.rawValue)
        json.comma()
        json.key("option")
        if let index = decision.selectedOptionIndex, RowOption.rowOptions.indices.contains(index) {
            json.option(RowOption.rowOptions[index])
        } else {
            json.raw("null")
        }
        json.comma()
        json.key("offset")
        json.double(decision.offset)
    }

    @Sendable private static func deletedCallIds(_ deleted: [String], _ json: inout JSONWriter) {
        json.key("deletedCallIds")
        json.strings(deleted)
    }
}
