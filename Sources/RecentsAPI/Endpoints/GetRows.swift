import HTTPServer

/// `GET /v1/lists/{list}/rows`, the hot read: answered from the view cache on the event loop
/// while the list is unchanged; otherwise built on a store reader, cached, then answered.
enum GetRows {
    static func make(_ service: Service) -> Endpoint {
        Endpoint(.GET, "/v1/lists/{list}/rows") { exchange throws(APIError) in
            ViewCache.Key(list: try exchange.list(), parameters: try exchange.query.view())
        } answer: { key, exchange in
            let live = service.live
            if service.store.isShared {
                // Other instances write too: one indexed lookup of the current version first.
                return live.reads.read(
                    key.list, answering: exchange, { tx in try tx.listInfo(key.list).version }, seen: { $0 }
                ) { version in
                    if let entry = service.views.entry(for: key, version: version) {
                        return send(exchange, entry)
                    }
                    build(key, exchange, service)
                }
            }
            if let version = live.heads.version(of: key.list),
                let entry = service.views.entry(for: key, version: version)
            {
                return send(exchange, entry)
            }
            build(key, exchange, service)
        }
    }

    /// Builds the rows of `key` on a store reader, caches and answers them.
    private static func build(_ key: ViewCache.Key, _ exchange: Exchange, _ service: Service) {
        let epoch = service.epoch
        service.live.reads.read(
            key.list, answering: exchange,
            { tx in try ListReads.rows(list: key.list, parameters: key.parameters, tx: tx) },
            seen: { page in page.info.exists ? page.info.version : nil }
        ) { page in
            let entry = ViewCache.Entry(
                version: page.info.version,
                etag: ResponseBodies.rowsETag(epoch: epoch, version: page.info.version, parameters: key.parameters),
                body: ResponseBodies.rows(page, epoch: epoch))
            if page.info.exists { service.views.store(entry, for: key) }
            send(exchange, entry)
        }
    }

    private static func send(_ exchange: Exchange, _ entry: ViewCache.Entry) {
        if let condition = exchange.request.headers["If-None-Match"], EntityTag.matches(condition, etag: entry.etag) {
            var headers = HTTPHeaders()
            headers.set("ETag", entry.etag)
            return exchange.send(HTTPResponse(status: 304, headers: headers))
        }
        exchange.json(200, entry.body, headers: [("ETag", entry.etag)])
    }
}
