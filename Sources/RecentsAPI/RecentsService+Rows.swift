import HTTPServer
import RecentsCore

// Contract section 2: the rows of a view, the hot read.
extension RecentsService {
    /// `GET /v1/lists/{list}/rows`: answered from the cache on the event loop while the list is
    /// unchanged; otherwise built on a store reader, cached, then answered.
    func rows() -> Endpoint {
        Endpoint(.GET, "/v1/lists/{list}/rows") { exchange throws(APIError) in
            ViewCache.Key(list: try exchange.list(), parameters: try exchange.query.view())
        } answer: { key, exchange in
            if let version = self.heads.version(of: key.list), let entry = self.cache.entry(for: key, version: version)
            {
                return self.sendRows(exchange, entry)
            }
            let epoch = self.epoch
            let mark = self.heads.readMark
            self.read(
                exchange, { tx in try ListReads.rows(list: key.list, parameters: key.parameters, epoch: epoch, tx: tx) }
            ) { answer in
                let entry = ViewCache.Entry(version: answer.version, etag: answer.etag, body: answer.body)
                if answer.exists {
                    self.heads.observe(key.list, version: answer.version, readSince: mark)
                    self.cache.store(entry, for: key)
                }
                self.sendRows(exchange, entry)
            }
        }
    }

    private func sendRows(_ exchange: Exchange, _ entry: ViewCache.Entry) {
        if let condition = exchange.request.headers["If-None-Match"], Self.matches(condition, etag: entry.etag) {
            var headers = HTTPHeaders()
            headers.set("ETag", entry.etag)
            return exchange.send(HTTPResponse(status: 304, headers: headers))
        }
        exchange.json(200, entry.body, headers: [("ETag", entry.etag)])
    }

    /// RFC 9110 §13.1.2: `*` or a list of entity tags, compared weakly (a `W/` prefix is ignored).
    static func matches(_ condition: String, etag: String) -> Bool {
        for candidate in condition.split(separator: ",") {
            var tag = candidate.trimmingSpaces
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == etag { return true }
        }
        return false
    }
}
