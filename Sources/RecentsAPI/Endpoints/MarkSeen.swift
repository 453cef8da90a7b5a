import RecentsCore
import RecentsJSON

/// `POST /v1/lists/{list}/seen`: moves the list's seen mark to `through` if that is later (never
/// back), so the missed-calls badge clears on every device; answers with the new count.
enum MarkSeen {
    static func make(_ service: Service) -> Endpoint {
        service.writes.endpoint(
            Command(
                .POST, "/v1/lists/{list}/seen",
                parse: { exchange throws(APIError) in try ListRequest(exchange, body: try exchange.seenThrough()) },
                run: { request, tx in
                    let info = try tx.listInfo(request.list)
                    let change = info.state.markingSeen(through: request.body)
                    if change.changed { try tx.setState(change.state, of: request.list) }
                    let unseen = try tx.unseenMissed(in: request.list, at: try tx.listInfo(request.list).version)
                    return Versioned(
                        value: Seen(seenThrough: change.state.seenThrough, unseenMissed: unseen),
                        versionBefore: info.version)
                },
                members: { seen, json in
                    json.key("seenThrough")
                    json.int(seen.seenThrough)
                    json.comma()
                    json.key("unseenMissed")
                    json.int(seen.unseenMissed)
                }))
    }

    /// The mark after the request and the count it leaves.
    struct Seen: Sendable {
        var seenThrough: Int64
        var unseenMissed: Int
    }
}

extension Exchange {
    /// The `{"through": <unix seconds>}` body of `POST …/seen`, a timestamp in the calls' range.
    func seenThrough() throws(APIError) -> Int64 {
        var reader = JSONObjectReader(try requiredJSONBody(), path: "")
        let through = reader.integer("through", required: true, in: Call.timestampRange)
        reader.finish()
        guard reader.errors.isEmpty, let through else { throw .validationFailed(reader.errors) }
        return through
    }
}
