import SystemSupport
import Testing

@testable import HTTPServer

/// The server's own answers go through `HTTPServerConfiguration.errorResponse`; start-up errors read as words.
@Suite(.serialized) struct ErrorResponseTests {
    @Test func theConfiguredRendererAnswersServerMadeErrors() throws {
        var config = testConfiguration()
        config.errorResponse = { status, detail in
            HTTPResponse(status: status, headers: ["X-Renderer": "app"], body: Array("app \(status): \(detail)".utf8))
        }
        try withServer(config, handler: { _, r in r.respond(HTTPResponse(status: 200)) }) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("GET / HTTP/1.1\r\nHost: h\r\nX-Big: " + String(repeating: "a", count: 20_000) + "\r\n\r\n")
            let r = try #require(c.readResponse())
            #expect(r.status == 431)
            #expect(r.header("X-Renderer") == "app")
            #expect(r.bodyString == "app 431: request head too large")
            #expect(r.header("Content-Length") == String(r.body.count))
            #expect(r.header("Connection") == "close")
            #expect(c.waitForClose())
        }
    }

    @Test func theDefaultRendererIsPlainTextWithRetryAfterOn503() {
        let busy = HTTPServerConfiguration().errorResponse(503, "busy")
        #expect(busy.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(busy.headers["Retry-After"] == "1")
        #expect(busy.body == Array("busy".utf8))
        #expect(HTTPServerConfiguration().errorResponse(400, "bad").headers["Retry-After"] == nil)
    }

    @Test func aPortInUseReadsAsWords() throws {
        try withServer(handler: { _, r in r.respond(HTTPResponse(status: 200)) }) { _, port in
            var config = testConfiguration()
            config.port = port
            let second = HTTPServer(configuration: config, logger: Logger(level: .error)) { _, _ in }
            #expect {
                try second.start()
            } throws: { error in
                "\(error)" == "127.0.0.1:\(port): address already in use"
            }
        }
    }
}
