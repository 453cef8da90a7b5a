import HTTPServer
import SystemSupport

/// Counts every answer by method, route and status, with its latency, for `/metrics`. Outermost
/// in the pipeline, so it also counts what inner middleware refused and the route table's own
/// 404/405/`OPTIONS` answers (`route="unmatched"`, `"unmatched-method"`).
///
/// Every label has a bound, so no client can grow the table (issue 38): the method is one the API
/// answers (its endpoints' methods, `HEAD` and `OPTIONS`) or `other`, however many methods clients
/// invent; the route is a pattern of the table or one of its two own labels; the status is one
/// the server answers with.
struct MetricsMiddleware: Middleware {
    let metrics: APIMetrics
    /// The methods counted under their own name.
    let methods: [HTTPMethod]

    /// The label every other method counts under.
    static let otherMethod = "other"

    init(metrics: APIMetrics, router: Router) {
        self.metrics = metrics
        methods = router.methods
    }

    func outbound(_ response: inout HTTPResponse, for exchange: Exchange) {
        let request = exchange.request
        let elapsed = request.receivedAt.duration(to: .now)
        let route = exchange.route
        let method = index(of: request.method)
        // One series per route label and method label (`other` last): a number, not a key to hash.
        metrics.record(
            series: route.labelIndex * (methods.count + 1) + method, status: response.status,
            seconds: SystemClock.seconds(elapsed)
        ) { (route.label, method < methods.count ? methods[method].rawValue : Self.otherMethod) }
    }

    /// Where `method` stands among the methods counted by name; `methods.count` (`other`) when
    /// the API does not know it.
    func index(of method: HTTPMethod) -> Int {
        // A handful of interned names: a scan is cheaper than hashing the method's string.
        for (index, known) in methods.enumerated() where known == method { return index }
        return methods.count
    }
}
