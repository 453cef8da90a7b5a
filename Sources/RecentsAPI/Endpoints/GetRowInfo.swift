import RecentsCore

/// `GET /v1/lists/{list}/rows/{rowId}`: one row of a view (filter, tz; no window) and its calls,
/// newest first, each with its kind: what Telegram's info page shows for a row's (i) button.
/// `GET /v1/lists/{list}/calls/{callId}/row` answers the same for the row that groups a call.
enum GetRowInfo {
    static func make(_ service: Service) -> Endpoint {
        make(service, path: "/v1/lists/{list}/rows/{rowId}", notFound: "no such row", lookup: .rowId)
    }

    /// The row found by one of its calls: a row's id is its newest call's, so a call joining the
    /// group renames the row, and a client that knew it by its old id (an info page open on a row
    /// beyond its window, say) finds it again through that id, now a call inside it.
    static func makeByCall(_ service: Service) -> Endpoint {
        make(service, path: "/v1/lists/{list}/calls/{callId}/row", notFound: "no such call", lookup: .callId)
    }

    private static func make(_ service: Service, path: String, notFound: String, lookup: RowLookup) -> Endpoint {
        Endpoint(.GET, path) { exchange throws(APIError) in
            try ItemRequest(exchange, or: notFound, body: try exchange.query.view())
        } answer: { request, exchange in
            let epoch = service.epoch
            service.live.reads.read(
                request.list, answering: exchange,
                { tx in
                    try ListReads.rowInfo(
                        list: request.list, lookup: lookup, id: request.id, parameters: request.body, tx: tx)
                },
                seen: { page in page.info.exists ? page.info.version : nil }
            ) { page in
                exchange.json(
                    200,
                    EncodedBody(
                        ResponseBodies.rowInfo(page, epoch: epoch),
                        etag: ResponseBodies.rowInfoETag(
                            epoch: epoch, version: page.info.version, parameters: page.parameters)))
            }
        }
    }
}

/// What the id in a row info request names.
enum RowLookup: Sendable {
    /// The row's own id.
    case rowId
    /// Any call the row groups.
    case callId
}
