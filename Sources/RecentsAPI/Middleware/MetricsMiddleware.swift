import HTTPServer
import SystemSupport

/// Counts every answer by method, route and status, with its latency, for `/metrics`. Outermost
/// in the pipeline, so it also counts what inner middleware refused and the route table's own
/// 404/405/`OPTIONS` answers (`route="unmatched"`, `"unmatched-method"`).
struct MetricsMiddleware: Middleware {
    let metrics: APIMetrics

    func outbound(_ response: inout HTTPResponse, for exchange: Exchange) {
        let request = exchange.request
        let elapsed = request.receivedAt.duration(to: .now)
        metrics.record(
            method: request.method.rawValue, route: exchange.route.label, status: response.status,
            seconds: SystemClock.seconds(elapsed))
    }
}
