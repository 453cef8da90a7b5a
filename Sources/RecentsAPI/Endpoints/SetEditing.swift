/// `PUT /v1/lists/{list}/editing`: edit mode on or off; "Done" also closes the open row.
enum SetEditing {
    static func make(_ service: Service) -> Endpoint {
        service.writes.endpoint(
            Command(
                .PUT, "/v1/lists/{list}/editing",
                parse: { exchange throws(APIError) in try ListRequest(exchange, body: try exchange.flag("editing")) },
                run: { request, tx in
                    let info = try tx.listInfo(request.list)
                    let change = info.state.settingEditing(request.body)
                    if change.changed { try tx.setState(change.state, of: request.list) }
                    return Versioned(value: change, versionBefore: info.version)
                },
                members: { change, json in json.state(change.state) }))
    }
}
