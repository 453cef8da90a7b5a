import HTTPServer

extension RecentsService {
    /// Every route the API serves; the OpenAPI document lists exactly these (a test checks).
    func makeRouter() -> Router {
        var router = Router()
        func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping @Sendable (Exchange) -> Void) {
            let metrics = metrics
            let corsOrigin = corsOrigin
            router.add(method, pattern) { request, responder in
                handler(
                    Exchange(
                        request: request, responder: responder, route: pattern, metrics: metrics,
                        corsOrigin: corsOrigin))
            }
        }
        add(.GET, "/healthz") { self.health($0) }
        add(.GET, "/metrics") { self.metricsText($0) }
        add(.GET, "/v1/openapi.json") { self.openAPI($0) }
        add(.GET, "/v1/lists/{list}") { self.getList($0) }
        add(.DELETE, "/v1/lists/{list}") { self.forgetList($0) }
        add(.POST, "/v1/lists/{list}/calls") { self.postCalls($0) }
        add(.GET, "/v1/lists/{list}/calls/{callId}") { self.getCall($0) }
        add(.DELETE, "/v1/lists/{list}/calls/{callId}") { self.deleteCall($0) }
        add(.GET, "/v1/lists/{list}/rows") { self.rows($0) }
        add(.PUT, "/v1/lists/{list}/rows/{rowId}/reveal") { self.reveal($0) }
        add(.POST, "/v1/lists/{list}/rows/{rowId}/gesture") { self.gesture($0) }
        add(.POST, "/v1/lists/{list}/rows/{rowId}/options/{key}") { self.confirmOption($0) }
        add(.PUT, "/v1/lists/{list}/editing") { self.setEditing($0) }
        add(.POST, "/v1/lists/{list}/clear") { self.clear($0) }
        add(.GET, "/v1/lists/{list}/transitions") { self.transitions($0) }
        return router
    }

    /// The server's handler: `OPTIONS` (and CORS preflight) for any known path, 404 and 405
    /// answered here (so they carry CORS headers and are counted), the router for the rest.
    func makeHandler() -> HTTPHandler {
        let router = makeRouter()
        let metrics = metrics
        let corsOrigin = corsOrigin
        return { request, responder in
            let methods = router.allowedMethods(forPath: request.path)
            if let methods, methods.contains(request.method) {
                router.handle(request, responder)
                return
            }
            let exchange = Exchange(
                request: request, responder: responder, route: methods == nil ? "unmatched" : "unmatched-method",
                metrics: metrics, corsOrigin: corsOrigin)
            guard let methods else { return exchange.fail(.notFound("no resource at \(request.path)")) }
            let allow = (methods + [.OPTIONS]).map(\.rawValue).joined(separator: ", ")
            guard request.method == .OPTIONS else {
                var error = APIError(
                    status: 405, type: "method-not-allowed", title: "Method not allowed",
                    detail: "\(request.method.rawValue) is not allowed on \(request.path); allowed: \(allow)")
                error.headers = [("Allow", allow)]
                return exchange.fail(error)
            }
            var headers = HTTPHeaders()
            headers.set("Allow", allow)
            if corsOrigin != nil {
                headers.set("Access-Control-Allow-Methods", allow)
                headers.set("Access-Control-Allow-Headers", "Content-Type, If-None-Match, X-Request-Id")
                headers.set("Access-Control-Max-Age", "600")
            }
            exchange.send(HTTPResponse(status: 204, headers: headers))
        }
    }
}
