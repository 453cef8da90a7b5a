import HTTPServer
import RecentsCore

// Contract section 3: reveal, editing, gestures and options.
extension RecentsService {
    /// `PUT /v1/lists/{list}/rows/{rowId}/reveal`.
    func reveal() -> Endpoint {
        command(
            .PUT, "/v1/lists/{list}/rows/{rowId}/reveal",
            parse: { exchange throws(APIError) in
                try ItemRequest(exchange, or: "no such row") { exchange throws(APIError) in
                    try RequestBodies.flag(try exchange.requiredJSONBody(), name: "revealed")
                }
            },
            run: { row, tx in try ListCommands.reveal(rowId: row.id, revealed: row.body, list: row.list, tx: tx) },
            members: { change, json in
                json.key("revealedRowId")
                json.string(change.state.revealedRowId)
                json.comma()
                json.key("changed")
                json.bool(change.changed)
            })
    }

    /// `PUT /v1/lists/{list}/editing`.
    func setEditing() -> Endpoint {
        command(
            .PUT, "/v1/lists/{list}/editing",
            parse: { exchange throws(APIError) in
                try ListRequest(exchange) { exchange throws(APIError) in
                    try RequestBodies.flag(try exchange.requiredJSONBody(), name: "editing")
                }
            },
            run: { request, tx in try ListCommands.setEditing(request.body, list: request.list, tx: tx) },
            members: { change, json in json.state(change.state) })
    }

    /// `POST /v1/lists/{list}/rows/{rowId}/gesture`: the server decides how a swipe ends.
    func gesture() -> Endpoint {
        command(
            .POST, "/v1/lists/{list}/rows/{rowId}/gesture",
            parse: { exchange throws(APIError) in
                try ItemRequest(exchange, or: "no such row") { exchange throws(APIError) in
                    try RequestBodies.gesture(try exchange.requiredJSONBody())
                }
            },
            run: { row, tx in try ListCommands.gesture(row.body, rowId: row.id, list: row.list, tx: tx) },
            members: { decision, json in
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
            })
    }

    /// `POST /v1/lists/{list}/rows/{rowId}/options/{key}`: confirms an option; `delete` removes the row's calls.
    func confirmOption() -> Endpoint {
        command(
            .POST, "/v1/lists/{list}/rows/{rowId}/options/{key}",
            parse: { exchange throws(APIError) in
                try ItemRequest(exchange, or: "no such row") { exchange throws(APIError) in
                    let key = exchange.parameter(2)
                    guard RowOption.rowOptions.contains(where: { $0.key == key }) else {
                        throw .notFound("rows have no option '\(key)'")
                    }
                    return RowDeletion(
                        parameters: try exchange.query.view(),
                        scope: try RequestBodies.scope(try exchange.jsonBody(required: false)))
                }
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
            parse: { exchange throws(APIError) in
                try ListRequest(exchange) { exchange throws(APIError) in
                    try RequestBodies.scope(try exchange.jsonBody(required: false))
                }
            },
            run: { request, tx in try ListCommands.clear(scope: request.body, list: request.list, tx: tx) },
            members: Self.deletedCallIds)
    }

    @Sendable private static func deletedCallIds(_ deleted: [String], _ json: inout JSONWriter) {
        json.key("deletedCallIds")
        json.strings(deleted)
    }
}
