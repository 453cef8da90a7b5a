import RecentsCore

/// `PUT /v1/lists/{list}/rows/{rowId}/reveal`: one row open at a time; opening always wins,
/// closing applies only to the open row.
enum RevealRow {
    static func make(_ service: Service) -> Endpoint {
        service.writes.endpoint(
            Command(
                .PUT, "/v1/lists/{list}/rows/{rowId}/reveal",
                parse: { exchange throws(APIError) in
                    try ItemRequest(exchange, or: "no such row", body: try exchange.flag("revealed"))
                },
                run: { row, tx in
                    let info = try tx.listInfo(row.list)
                    guard try tx.call(row.id, in: row.list) != nil else {
                        throw APIError.notFound("no row '\(row.id)' in list '\(row.list)'")
                    }
                    let change = info.state.revealing(rowId: row.id, revealed: row.body)
                    if change.changed { try tx.setState(change.state, of: row.list) }
                    return Versioned(value: change, versionBefore: info.version)
                },
                members: { change, json in
                    json.key("revealedRowId")
                    json.string(change.state.revealedRowId)
                    json.comma()
                    json.key("changed")
                    json.bool(change.changed)
                }))
    }
}
