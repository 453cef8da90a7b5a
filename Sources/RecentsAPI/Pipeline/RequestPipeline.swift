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

    /// The server's admission hook (`HTTPServerConfiguration.admission`).
    var admission: HTTPAdmission {
        { head, responder in self.admit(head, responder) }
    }

    /// Resolves and answers one request.
    func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
        if let admitted = request.admission as? AdmittedHead {
            // Its head went through the middleware already (`admit`): on to the endpoint.
            var exchange = Exchange(request: request, responder: responder, route: admitted.route, pipeline: self)
            exchange.passed = admitted.passed
            exchange.context = admitted.context
            do throws(APIError) { try admitted.route.handle(exchange) } catch { exchange.fail(error) }
            return
        }
        var exchange = Exchange(
            request: request, responder: responder, route: router.route(request.method, request.pathSegments),
            pipeline: self)
        guard passInbound(&exchange) else { return }
        do throws(APIError) { try exchange.route.handle(exchange) } catch { exchange.fail(error) }
    }

    /// Decides on a request whose body has not been read yet, with the very middleware every
    /// request passes (the rate limit, then authentication), so a client without a valid token,
    /// or over its rate, never makes the server read or hold a body: the refusal is answered now
    /// and the connection closes. What the middleware learned goes with the request to `handle`,
    /// so an admitted request pays for its token once. A path the route table answers itself
    /// (404, 405, `OPTIONS`) needs no body either, and is answered now too.
    func admit(_ head: HTTPRequest, _ responder: HTTPResponder) -> HTTPAdmissionResult {
        let route = router.route(head.method, head.pathSegments)
        guard route.endpoint != nil else {
            handle(head, responder)
            return .answered
        }
        var exchange = Exchange(request: head, responder: responder, route: route, pipeline: self)
        guard passInbound(&exchange) else { return .answered }
        return .readBody(note: AdmittedHead(route: route, passed: exchange.passed, context: exchange.context))
    }

    /// Runs every middleware's inbound hook in order; false when one refused (and it was answered).
    private func passInbound(_ exchange: inout Exchange) -> Bool {
        do throws(APIError) {
            for layer in middleware {
                try layer.inbound(&exchange)
                exchange.passed += 1
            }
            return true
        } catch {
            exchange.fail(error)
            return false
        }
    }

    /// What the middleware decided on an admitted head, for its request once the body is in.
    struct AdmittedHead: Sendable {
        let route: Route
        let passed: Int
        let context: RequestContext
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
