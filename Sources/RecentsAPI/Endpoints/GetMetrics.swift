import HTTPServer

/// `GET /metrics` in the Prometheus text format (admin-only when auth is on).
enum GetMetrics {
    static func make(_ service: Service) -> Endpoint {
        Endpoint(.GET, "/metrics") { exchange throws(APIError) in
            let storeMetrics = service.store.metrics
            let samples = APIMetrics.Samples(
                openConnections: service.server.openConnections, parkedLongPolls: service.live.longPolls.count,
                openEventStreams: service.live.streams.count, writeBatches: storeMetrics.batches,
                writes: storeMetrics.writes, versionsWritten: storeMetrics.versionsWritten,
                commitSecondsTotal: storeMetrics.commitSeconds,
                batchSizeBuckets: cumulative(storeMetrics.batchSizeHistogram), shards: service.store.shards)
            var headers = HTTPHeaders()
            headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            exchange.send(HTTPResponse(status: 200, headers: headers, body: service.metrics.render(samples)))
        }
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
}
