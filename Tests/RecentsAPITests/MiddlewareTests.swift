import HTTPServer
import RecentsTestSupport
import Synchronization
import SystemSupport
import Testing

@testable import RecentsAPI

/// Appends what it sees to a shared trace; refuses requests when `refuses` is set.
private struct Recorder: Middleware {
    let name: String
    let trace: Trace
    var refuses = false

    func inbound(_ exchange: inout Exchange) throws(APIError) {
        trace.append("in \(name)")
        if refuses { throw .notFound("refused by \(name)") }
    }

    func outbound(_ response: inout HTTPResponse, for exchange: Exchange) {
        trace.append("out \(name)")
        response.headers.add("X-Seen-By", name)
    }
}

private final class Trace: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

@Suite struct MiddlewareTests {
    /// Serves one endpoint, `GET /thing`, through `middleware`, on a real loopback server.
    private func serve(
        _ middleware: [any Middleware], trace: Trace, _ body: (TestHTTPClient) throws -> Void
    ) throws {
        let router = Router([
            Endpoint(.GET, "/thing") { exchange throws(APIError) in
                trace.append("endpoint")
                exchange.json(200, Array("{}".utf8))
            }
        ])
        let pipeline = RequestPipeline(router: router, middleware: middleware, logger: Logger(level: .error))
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.loopCount = 1
        let server = HTTPServer(configuration: configuration, logger: Logger(level: .error), handler: pipeline.handler)
        try server.start()
        defer { server.shutdown(gracePeriod: .seconds(1)) }
        try body(try TestHTTPClient(port: server.localPort))
    }

    @Test func requestsGoInInOrderAndAnswersComeOutInReverse() throws {
        let trace = Trace()
        let chain: [any Middleware] = ["a", "b", "c"].map { Recorder(name: $0, trace: trace) }
        try serve(chain, trace: trace) { client in
            let response = try client.request("GET", "/thing")
            #expect(response.status == 200)
            #expect(response.headers["x-seen-by"] == "c, b, a")
        }
        #expect(trace.all == ["in a", "in b", "in c", "endpoint", "out c", "out b", "out a"])
    }

    @Test func aRefusalSkipsTheEndpointAndInnerMiddlewareButPassesTheOuterOnes() throws {
        let trace = Trace()
        let chain: [any Middleware] = [
            Recorder(name: "a", trace: trace), Recorder(name: "b", trace: trace, refuses: true),
            Recorder(name: "c", trace: trace),
        ]
        try serve(chain, trace: trace) { client in
            let response = try client.request("GET", "/thing")
            #expect(response.status == 404)
            #expect(response.headers["content-type"] == "application/problem+json")
            #expect(response.text.contains("refused by b"))
        }
        #expect(trace.all == ["in a", "in b", "out a"])
    }

    @Test func theRouteTablesOwnAnswersPassThroughTheMiddlewareToo() throws {
        let trace = Trace()
        try serve([Recorder(name: "a", trace: trace)], trace: trace) { client in
            #expect(try client.request("GET", "/nowhere").status == 404)
            let options = try client.request("OPTIONS", "/thing")
            #expect(options.status == 204)
            #expect(options.headers["allow"] == "GET, HEAD, OPTIONS")
            #expect(try client.request("DELETE", "/thing").status == 405)
        }
        #expect(trace.all == ["in a", "out a", "in a", "out a", "in a", "out a"])
    }

    @Test func corsAddsPreflightHeadersOnlyToOptionsAndOriginHeadersToEverything() throws {
        let trace = Trace()
        try serve([CORSMiddleware(origin: "https://app.example")], trace: trace) { client in
            let preflight = try client.request("OPTIONS", "/thing")
            #expect(preflight.headers["access-control-allow-methods"] == "GET, HEAD, OPTIONS")
            #expect(preflight.headers["access-control-max-age"] == "600")
            #expect(preflight.headers["vary"] == "Origin")
            let get = try client.request("GET", "/thing")
            #expect(get.headers["access-control-allow-origin"] == "https://app.example")
            #expect(get.headers["access-control-allow-methods"] == nil)
        }
        #expect(CORSMiddleware(origin: nil).originHeaders.isEmpty)
        #expect(CORSMiddleware(origin: "*").originHeaders.map(\.name).contains("Vary") == false)
    }

    @Test func theHTTPLayersErrorsRenderLikeEveryOtherWithCORS() {
        let response = APIError.httpLayerResponse(
            status: 414, detail: "too long", cors: CORSMiddleware(origin: "https://app.example"))
        #expect(response.status == 414)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(response.headers["Access-Control-Allow-Origin"] == "https://app.example")
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == #"{"type":"uri-too-long","title":"URI Too Long","status":414,"detail":"too long"}"#)
        let overloaded = APIError.httpLayerResponse(status: 503, detail: "busy", cors: CORSMiddleware(origin: nil))
        #expect(overloaded.headers["Retry-After"] == "1")
        #expect(overloaded.headers["Access-Control-Allow-Origin"] == nil)
    }
}
