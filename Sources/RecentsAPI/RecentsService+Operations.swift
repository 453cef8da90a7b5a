import HTTPServer

// Contract section 5: service endpoints.
extension RecentsService {
    /// `GET /healthz`: 200 when the database answers a read, 503 otherwise.
    func health() -> Endpoint {
        Endpoint(.GET, "/healthz") { exchange throws(APIError) in self.health(exchange) }
    }

    private func health(_ exchange: Exchange) {
        store.read({ tx in try tx.listInfo("healthz").version }) { result in
            switch result {
            case .success: exchange.json(200, Array(#"{"status":"ok"}"#.utf8))
            case .failure: exchange.fail(.unavailable("the database does not answer"))
            }
        }
    }

    /// `GET /metrics` in the Prometheus text format.
    func metricsText() -> Endpoint {
        Endpoint(.GET, "/metrics") { exchange throws(APIError) in self.metricsText(exchange) }
    }

    private func metricsText(_ exchange: Exchange) {
        let storeMetrics = store.metrics
        let connections = server.withLock { $0?.openConnections ?? 0 }
        let samples = APIMetrics.Samples(
            openConnections: connections, parkedLongPolls: hub.count, openEventStreams: eventStreams.count,
            writeBatches: storeMetrics.batches,
            writes: storeMetrics.writes, versionsWritten: storeMetrics.versionsWritten,
            commitSecondsTotal: storeMetrics.commitSeconds,
            batchSizeBuckets: Self.cumulative(storeMetrics.batchSizeHistogram))
        var headers = HTTPHeaders()
        headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
        exchange.send(HTTPResponse(status: 200, headers: headers, body: metrics.render(samples)))
    }

    /// The store's power-of-two batch-size counts as cumulative Prometheus buckets.
    static func cumulative(_ histogram: [Int: Int]) -> [(le: Int, count: Int)] {
        let largest = max(histogram.keys.max() ?? 1, 256)
        var buckets: [(le: Int, count: Int)] = []
        var bound = 1
        var total = 0
        while bound <= largest {
            total += histogram[bound] ?? 0
            buckets.append((bound, total))
            bound *= 2
        }
        return buckets
    }

    /// `GET /v1/openapi.json`: the OpenAPI 3.1 document of this API, embedded in the binary.
    func openAPI() -> Endpoint {
        Endpoint(.GET, "/v1/openapi.json") { exchange throws(APIError) in exchange.json(200, EmbeddedOpenAPI.file.bytes)
        }
    }
}
