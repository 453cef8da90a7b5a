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
                        return send(exchange, entry, key: key, service: service)
                    }
                    build(key, exchange, service)
                }
            }
            if let version = live.heads.version(of: key.list),
                let entry = service.views.entry(for: key, version: version)
            {
                return send(exchange, entry, key: key, service: service)
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
                body: EncodedBody(
                    ResponseBodies.rows(page, epoch: epoch),
                    etag: ResponseBodies.rowsETag(epoch: epoch, version: page.info.version, parameters: key.parameters))
            )
            if page.info.exists { service.views.store(entry, for: key) }
            send(exchange, entry, key: key, service: service)
        }
    }

    /// Answers with the entry's body in the client's coding; a copy made now is charged to the cache.
    private static func send(_ exchange: Exchange, _ entry: ViewCache.Entry, key: ViewCache.Key, service: Service) {
        exchange.json(200, entry.body) { made in service.views.charge(made, to: key, version: entry.version) }
    }
}
