/// Maps method + path patterns (`/v1/lists/{list}/rows/{rowId}`) to handlers; usable as the server's handler.
public struct Router: Sendable {
    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private struct Route: Sendable {
        var method: HTTPMethod
        var pattern: String
        var segments: [Segment]
        var handler: HTTPHandler
    }

    private var table: [Route] = []

    /// An empty router.
    public init() {}

    /// Adds a route; `{name}` segments capture one decoded path segment each.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping HTTPHandler) {
        let segments = Self.splitPattern(pattern).map { part -> Segment in
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count >= 2 {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(part)
        }
        table.append(Route(method: method, pattern: pattern, segments: segments, handler: handler))
    }

    /// The registered routes in registration order.
    public var routes: [(method: HTTPMethod, pattern: String)] {
        table.map { (method: $0.method, pattern: $0.pattern) }
    }

    /// Dispatches `request`: 404 when no pattern matches the path, 405 with `Allow` when only the method differs.
    public func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
        var getMatch: (Route, [String: String])?
        for route in table {
            guard let params = Self.match(route.segments, request.pathSegments) else { continue }
            if route.method == request.method {
                call(route, params, request, responder)
                return
            }
            if request.method == .HEAD && route.method == .GET && getMatch == nil { getMatch = (route, params) }
        }
        // RFC 9110 §9.3.2: HEAD is GET without the body; the server strips the body.
        if let (route, params) = getMatch {
            call(route, params, request, responder)
            return
        }
        if let allowed = allowedMethods(forPath: request.pathSegments) {
            var response = HTTPServerConfiguration.plainTextError(
                405, "\(request.method.rawValue) is not allowed on \(request.path)")
            response.headers.add("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            responder.respond(response)
        } else {
            responder.respond(HTTPServerConfiguration.plainTextError(404, "no route for \(request.path)"))
        }
    }

    /// The methods routed for a raw path (HEAD included when GET is), sorted; nil when no pattern matches.
    public func allowedMethods(forPath path: String) -> [HTTPMethod]? {
        let segments = RequestTarget.decodeSegments(RequestTarget.split(path).path) ?? []
        return allowedMethods(forPath: segments)
    }

    private func allowedMethods(forPath segments: [String]) -> [HTTPMethod]? {
        var methods = Set<HTTPMethod>()
        for route in table where Self.match(route.segments, segments) != nil {
            methods.insert(route.method)
            if route.method == .GET { methods.insert(.HEAD) }
        }
        return methods.isEmpty ? nil : methods.sorted()
    }

    private func call(_ route: Route, _ params: [String: String], _ request: HTTPRequest, _ responder: HTTPResponder) {
        var request = request
        request.pathParameters = params
        request.routePattern = route.pattern
        route.handler(request, responder)
    }

    private static func splitPattern(_ pattern: String) -> [String] {
        if pattern.isEmpty || pattern == "/" { return [] }
        var parts = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.first == "" { parts.removeFirst() }
        return parts
    }

    private static func match(_ pattern: [Segment], _ path: [String]) -> [String: String]? {
        guard pattern.count == path.count else { return nil }
        var params: [String: String] = [:]
        for (segment, value) in zip(pattern, path) {
            switch segment {
            case .literal(let literal):
                if literal != value { return nil }
            case .parameter(let name):
                if value.isEmpty { return nil }
                params[name] = value
            }
        }
        return params
    }
}
