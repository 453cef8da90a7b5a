import RecentsStore

/// `DELETE /v1/lists/{list}/calls/{callId}`: the call goes; an open row that named it closes.
enum DeleteCall {
    static func make(_ service: Service) -> Endpoint {
        service.writes.endpoint(
            Command(
                .DELETE, "/v1/lists/{list}/calls/{callId}",
                parse: { exchange throws(APIError) in try ItemRequest(exchange, or: "no such call") },
                run: { call, tx in
                    let before = try tx.listInfo(call.list).version
                    guard try !CallDeletion.delete([call.id], from: call.list, tx: tx).isEmpty else {
                        throw APIError.notFound("no call '\(call.id)' in list '\(call.list)'")
                    }
                    return Versioned(value: (), versionBefore: before)
                }))
    }
}
