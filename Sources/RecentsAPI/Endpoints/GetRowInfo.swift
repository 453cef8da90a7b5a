import RecentsCore

/// `GET /v1/lists/{list}/rows/{rowId}`: one row of a view (filter, tz; no window) and its calls,
/// newest first, each with its kind: what Telegram's info page shows for a row's (i) button.
enum GetRowInfo {
    static func make(_ service: Service) -> Endpoint {
        Endpoint(.GET, "/v1/lists/{list}/rows/{rowId}") { exchange throws(APIError) in
            try ItemRequest(exchange, or: "no such row", body: try exchange.query.view())
        } answer: { request, exchange in
            let epoch = service.epoch
            service.live.reads.read(
                request.list, answering: exchange,
                { tx in try ListReads.rowInfo(list: request.list, rowId: request.id, parameters: request.body, tx: tx)
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
