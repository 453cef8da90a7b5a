import HTTPServer
import SystemSupport

/// The one path of every request: route lookup, middleware in, endpoint, middleware out, and
/// the rendering of whatever `APIError` any of them throws. Built once at start-up.
final class RequestPipeline: Sendable {
    let router: Router
    let middleware: [any Middleware]
    /// Where a failure that is not an `APIError` (a 500) is logged.
    let logger: Logger
    /// How answers are compressed.
    let compression: CompressionSettings
    /// The most a request body may inflate to (`--max-body-bytes`, the raw body's own limit too).
    let maxBodyBytes: Int
    /// Requests refused because the storage is away, logged one line a second.
    let storeFailures = LogThrottle()

    /// A pipeline running `middleware` (outermost first) around the routes of `router`.
    init(
        router: Router, middleware: [any Middleware], logger: Logger, compression: CompressionSettings,
        maxBodyBytes: Int
    ) {
        self.router = router
        self.middleware = middleware
        self.logger = logger
        self.compression = compression
        self.maxBodyBytes = maxBodyBytes
    }

    /// The server's handler.
    var handler: HTTPHandler {
        { request, responder in self.handle(request, responder) }
    }

    /// Resolves and answers one request.
    func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
        let route = router.route(request.method, request.pathSegments)
        var exchange = Exchange(request: request, responder: responder, route: route, pipeline: self)
        do throws(APIError) {
            for layer in middleware {
                try layer.inbound(&exchange)
                exchange.passed += 1
            }
            try route.handle(exchange)
        } catch {
            exchange.fail(error)
        }
    }

    /// Hands `response` to the middleware that let `exchange` pass, then sends it.
    func send(_ response: HTTPResponse, for exchange: Exchange) {
        var response = response
        outbound(&response, for: exchange)
        exchange.responder.respond(response)
    }

    /// Runs the outbound hooks of the middleware that let `exchange` pass, innermost first: on a
    /// whole answer, and (for a streamed one) on its head before the first byte is written.
    func outbound(_ response: inout HTTPResponse, for exchange: Exchange) {
        var layer = min(exchange.passed, middleware.count)
        while layer > 0 {
            layer -= 1
            middleware[layer].outbound(&response, for: exchange)
        }
    }
}
