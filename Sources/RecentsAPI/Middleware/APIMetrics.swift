import RecentsStore
import Synchronization

/// Request counters and the latency histogram behind `GET /metrics` (Prometheus text format).
final class APIMetrics: Sendable {
    /// Upper bounds of the latency buckets, in seconds.
    static let latencyBuckets: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
    ]

    /// The requests answered for one route and method, by status.
    private struct Series {
        var route = ""
        var method = ""
        /// Each status answered and how often, in the order first answered: a route answers a
        /// handful, so a scan finds one sooner than a hash of it would.
        var statuses: [(status: Int, count: Int)] = []

        /// Counts one answer of `status`; `labels` names the series on its first answer.
        mutating func count(_ status: Int, labels: () -> (route: String, method: String)) {
            for i in statuses.indices where statuses[i].status == status {
                statuses[i].count += 1
                return
            }
            if statuses.isEmpty { (route, method) = labels() }
            statuses.append((status, 1))
        }
    }

    private struct State {
        /// By the caller's series number (`record(series:…)`); a series never answered is empty.
        var series: [Series] = []
        var buckets = [Int](repeating: 0, count: APIMetrics.latencyBuckets.count)
        var latencyCount = 0
        var latencySum = 0.0
    }

    private let state = Mutex(State())

    /// Counts one answered request under `series`, the caller's number for one route and method
    /// (a small integer resolved without hashing: counting under a dictionary keyed by the two
    /// strings and the status hashed them on every request, ~800 instructions of a cached read,
    /// callgrind, issue 42); `labels` names that route and method the first time it is counted.
    func record(
        series index: Int, status: Int, seconds: Double, labels: () -> (route: String, method: String)
    ) {
        let bucket = Self.latencyBuckets.firstIndex(where: { seconds <= $0 })
        state.withLock { state in
            if index >= state.series.count {
                state.series.append(contentsOf: repeatElement(Series(), count: index + 1 - state.series.count))
            }
            state.series[index].count(status, labels: labels)
            if let bucket { state.buckets[bucket] += 1 }
            state.latencyCount += 1
            state.latencySum += seconds
        }
    }

    /// Gauges and counters that live elsewhere, sampled when /metrics is read.
    struct Samples: Sendable {
        var openConnections: Int
        var parkedLongPolls: Int
        var openEventStreams: Int
        var writeBatches: Int
        var writes: Int
        var versionsWritten: Int
        var commitSecondsTotal: Double
        var batchSizeBuckets: [(le: Int, count: Int)]
        /// Each shard's counters when the store is sharded (a `shard` label each); empty otherwise.
        var shards: [ShardStatus] = []
    }

    /// The Prometheus text exposition (version 0.0.4).
    func render(_ samples: Samples) -> [UInt8] {
        var out = ""
        state.withLock { state in
            out += "# HELP recents_http_requests_total Requests answered, by method, route and status.\n"
            out += "# TYPE recents_http_requests_total counter\n"
            var lines: [(route: String, method: String, status: Int, count: Int)] = []
            for series in state.series {
                for (status, count) in series.statuses { lines.append((series.route, series.method, status, count)) }
            }
            lines.sort { ($0.route, $0.method, $0.status) < ($1.route, $1.method, $1.status) }
            for line in lines {
                out +=
                    "recents_http_requests_total{method=\"\(line.method)\",route=\"\(Self.escape(line.route))\",status=\"\(line.status)\"} \(line.count)\n"
            }
            out += "# HELP recents_http_request_duration_seconds Time from request to answer.\n"
            out += "# TYPE recents_http_request_duration_seconds histogram\n"
            var cumulative = 0
            for (bound, count) in zip(Self.latencyBuckets, state.buckets) {
                cumulative += count
                out += "recents_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "recents_http_request_duration_seconds_bucket{le=\"+Inf\"} \(state.latencyCount)\n"
            out += "recents_http_request_duration_seconds_sum \(state.latencySum)\n"
            out += "recents_http_request_duration_seconds_count \(state.latencyCount)\n"
        }
        let scalars: [(name: String, type: String, help: String, value: String)] = [
            ("recents_open_connections", "gauge", "Open HTTP connections.", "\(samples.openConnections)"),
            (
                "recents_parked_long_polls", "gauge", "Transition requests waiting for a change.",
                "\(samples.parkedLongPolls)"
            ),
            ("recents_open_event_streams", "gauge", "Open event streams.", "\(samples.openEventStreams)"),
            (
                "recents_write_batches_total", "counter", "Group commits (one transaction and one fsync each).",
                "\(samples.writeBatches)"
            ),
            (
                "recents_writes_total", "counter", "Write requests committed or refused by the writer.",
                "\(samples.writes)"
            ),
            ("recents_versions_written_total", "counter", "List versions created.", "\(samples.versionsWritten)"),
            (
                "recents_sqlite_commit_seconds_total", "counter", "Time spent in SQLite COMMIT (fsync included).",
                "\(samples.commitSecondsTotal)"
            ),
        ]
        for metric in scalars {
            out += "# HELP \(metric.name) \(metric.help)\n# TYPE \(metric.name) \(metric.type)\n"
            out += "\(metric.name) \(metric.value)\n"
        }
        out += Self.renderShards(samples.shards)
        if !samples.batchSizeBuckets.isEmpty {
            out += "# HELP recents_write_batch_size Requests per group commit.\n"
            out += "# TYPE recents_write_batch_size histogram\n"
            var total = 0
            for (bound, count) in samples.batchSizeBuckets {
                total = count
                out += "recents_write_batch_size_bucket{le=\"\(bound)\"} \(count)\n"
            }
            out += "recents_write_batch_size_bucket{le=\"+Inf\"} \(total)\n"
            out += "recents_write_batch_size_count \(total)\n"
        }
        return Array(out.utf8)
    }

    /// One series per shard of each per-shard metric, labelled `shard`; nothing for one database.
    private static func renderShards(_ shards: [ShardStatus]) -> String {
        guard !shards.isEmpty else { return "" }
        let series: [(name: String, type: String, help: String, value: @Sendable (ShardStatus) -> String)] = [
            (
                "recents_shard_writes_total", "counter", "Write requests run by the shard's writer.",
                { "\($0.metrics.writes)" }
            ),
            (
                "recents_shard_write_batches_total", "counter", "Group commits on the shard.",
                { "\($0.metrics.batches)" }
            ),
            (
                "recents_shard_failed_writes_total", "counter", "Write requests that failed on the shard.",
                { "\($0.metrics.failedWrites)" }
            ),
            (
                "recents_shard_versions_written_total", "counter", "List versions created on the shard.",
                { "\($0.metrics.versionsWritten)" }
            ),
            (
                "recents_shard_degraded", "gauge", "1 while the shard's last write failed for its storage.",
                { $0.health == .ok ? "0" : "1" }
            ),
            (
                "recents_shard_outbox_pending", "gauge",
                "Deletes for everyone committed on the shard and not yet applied on the peer's shard.",
                { "\($0.outboxPending)" }
            ),
            (
                "recents_shard_outbox_oldest_seconds", "gauge",
                "Seconds the shard's oldest pending outbox entry has waited (0: none).",
                { "\($0.outboxOldestSeconds)" }
            ),
        ]
        var out = ""
        for metric in series {
            out += "# HELP \(metric.name) \(metric.help)\n# TYPE \(metric.name) \(metric.type)\n"
            for shard in shards {
                out += "\(metric.name){shard=\"\(escape(shard.name))\"} \(metric.value(shard))\n"
            }
        }
        return out
    }

    private static func escape(_ label: String) -> String {
        var escaped = ""
        for character in label {
            if character == "\\" || character == "\"" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
