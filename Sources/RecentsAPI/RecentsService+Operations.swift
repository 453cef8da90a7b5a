import HTTPServer
import RecentsJSON

// Contract section 5: service endpoints.
extension RecentsService {
    /// `GET /healthz`: 200 `ok` when the database answers a read and writes reach the disk, 200
    /// `degraded` with the reason when reads work but writes fail for storage, 503 when reads fail.
    ///
    /// Degraded stays 200 because load balancers take a node out on a non-2xx health answer, and
    /// this node still serves every read (there is no other writer to send writes to either);
    /// monitoring reads the `status` member instead.
    func health() -> Endpoint {
        Endpoint(.GET, "/healthz") { exchange throws(APIError) in self.health(exchange) }
    }

    private func health(_ exchange: Exchange) {
        let store = self.store
        store.read({ tx in try tx.listInfo("healthz").version }) { result in
            guard case .success = result else { return exchange.fail(.unavailable("the database does not answer")) }
            var json = JSONWriter()
            json.raw("{")
            json.key("status")
            switch store.health {
            case .ok:
                json.string("ok")
            case .degraded(let reason):
                json.string("degraded")
                json.comma()
                json.key("reason")
                json.string(reason)
            }
            json.raw("}")
            exchange.json(200, json.bytes)
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
