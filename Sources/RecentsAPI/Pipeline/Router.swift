import HTTPServer

/// The route table: resolves a request's method and decoded path to one `Route` in one lookup.
///
/// A path that fits no pattern resolves to 404 `not-found`; a known path with another method to
/// 405 `method-not-allowed` with `Allow`; `OPTIONS` on a known path to 204 with `Allow` (CORS
/// adds the preflight headers); `HEAD` to the path's `GET` (the server drops the body,
/// RFC 9110 §9.3.2). Patterns are grouped by segment count, so a lookup compares only the
/// patterns of its length, and nothing is allocated for a request that resolves to an endpoint.
struct Router: Sendable {
    /// The endpoints of one path pattern and the table's answers for its other methods.
    private struct Resource: Sendable {
        var pattern: RoutePattern
        var routes: [(method: HTTPMethod, route: Route)]
        var options: Route
        var notAllowed: Route

        func route(for method: HTTPMethod) -> Route? {
            for entry in routes where entry.method == method { return entry.route }
            if method == .HEAD { return route(for: .GET) }
            if method == .OPTIONS { return options }
            return nil
        }
    }

    /// Every endpoint, in declaration order.
    let endpoints: [Endpoint]
    /// Every route's /metrics label, once each: `labels[route.labelIndex] == route.label`.
    let labels: [String]
    /// Resources by segment count: `bySegmentCount[n]` holds the patterns of `n` segments.
    private let bySegmentCount: [[Resource]]
    private let notFound: Route

    /// Compiles `endpoints`; two patterns that one path could fit are a programming error.
    init(_ endpoints: [Endpoint]) {
        self.endpoints = endpoints
        var resources: [Resource] = []
        for endpoint in endpoints {
            if let index = resources.firstIndex(where: { $0.pattern == endpoint.pattern }) {
                precondition(
                    resources[index].routes.allSatisfy { $0.method != endpoint.method },
                    "\(endpoint.method) \(endpoint.pattern) is declared twice")
                resources[index].routes.append((endpoint.method, Route(endpoint, labelIndex: index)))
            } else {
                precondition(
                    !resources.contains { $0.pattern.overlaps(endpoint.pattern) },
                    "\(endpoint.pattern) overlaps another pattern")
                let route = Route(endpoint, labelIndex: resources.count)
                resources.append(
                    Resource(
                        pattern: endpoint.pattern, routes: [(endpoint.method, route)], options: route, notAllowed: route
                    ))
            }
        }
        // Each pattern's label first, in declaration order, then the table's own two.
        labels = resources.map(\.pattern.description) + ["unmatched", "unmatched-method"]
        let unmatchedMethod = resources.count + 1
        var buckets = [[Resource]](repeating: [], count: (resources.map(\.pattern.segments.count).max() ?? 0) + 1)
        for var resource in resources {
            let allow = Self.allow(resource.routes.map(\.method))
            resource.options = Self.optionsRoute(allow: allow, labelIndex: unmatchedMethod)
            resource.notAllowed = Self.notAllowedRoute(allow: allow, labelIndex: unmatchedMethod)
            buckets[resource.pattern.segments.count].append(resource)
        }
        bySegmentCount = buckets
        notFound = Route(label: "unmatched", labelIndex: resources.count) { exchange throws(APIError) in
            throw .notFound("no resource at \(exchange.request.path)")
        }
    }

    /// Every method the table answers on some path: its endpoints' methods, `HEAD` and `OPTIONS`
    /// (the most used first).
    var methods: [HTTPMethod] {
        var all: [HTTPMethod] = [.GET, .HEAD, .POST, .PUT, .DELETE, .OPTIONS].filter { method in
            method == .HEAD || method == .OPTIONS || endpoints.contains { $0.method == method }
        }
        for endpoint in endpoints where !all.contains(endpoint.method) { all.append(endpoint.method) }
        return all
    }

    /// The endpoints as `(method, pattern)`, for the check against the OpenAPI document.
    var routes: [(method: HTTPMethod, pattern: String)] {
        endpoints.map { ($0.method, $0.pattern.description) }
    }

    /// The route `method` on the decoded `path` segments resolves to.
    func route(_ method: HTTPMethod, _ path: [String]) -> Route {
        guard path.count < bySegmentCount.count else { return notFound }
        for resource in bySegmentCount[path.count] where resource.pattern.matches(path) {
            return resource.route(for: method) ?? resource.notAllowed
        }
        return notFound
    }

    /// The `Allow` value of a path: its methods sorted, `HEAD` where `GET` is, then `OPTIONS`.
    static func allow(_ methods: [HTTPMethod]) -> String {
        var all = Set(methods)
        if all.contains(.GET) { all.insert(.HEAD) }
        all.remove(.OPTIONS)
        return (all.sorted() + [.OPTIONS]).map(\.rawValue).joined(separator: ", ")
    }

    private static func optionsRoute(allow: String, labelIndex: Int) -> Route {
        Route(label: "unmatched-method", labelIndex: labelIndex) { exchange throws(APIError) in
            var headers = HTTPHeaders()
            headers.set("Allow", allow)
            exchange.send(HTTPResponse(status: 204, headers: headers))
        }
    }

    private static func notAllowedRoute(allow: String, labelIndex: Int) -> Route {
        Route(label: "unmatched-method", labelIndex: labelIndex) { exchange throws(APIError) in
            let request = exchange.request
            var error = APIError(
                status: 405, type: "method-not-allowed", title: "Method not allowed",
                detail: "\(request.method.rawValue) is not allowed on \(request.path); allowed: \(allow)")
            error.headers = [("Allow", allow)]
            throw error
        }
    }
}
