import Dispatch
import Glibc
import Synchronization
import SystemSupport
import Testing

@testable import HTTPServer

/// Echoes method, path and body; `/big` answers 512 KB.
private let echoHandler: HTTPHandler = { request, responder in
    var headers = HTTPHeaders()
    headers.add("X-Path", request.path)
    headers.add("X-Method", request.method.rawValue)
    responder.respond(HTTPResponse(status: 200, headers: headers, body: request.body))
}

/// End-to-end tests on real loopback sockets; serialized because the fuzz test counts this process's fds.
@Suite(.serialized) struct ServerTests {
    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        try withServer(handler: echoHandler) { server, port in
            let c = try #require(TestClient(port: port))
            for i in 0..<3 {
                c.send("POST /k\(i) HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nh\(i)")
                let r = try #require(c.readResponse())
                #expect(r.status == 200)
                #expect(r.bodyString == "h\(i)")
                #expect(r.header("X-Path") == "/k\(i)")
                #expect(r.header("Server") == "recents")
                #expect(r.header("Date")?.hasSuffix(" GMT") == true)
                #expect(r.header("X-Request-Id")?.isEmpty == false)
                #expect(r.header("Connection") == nil)
            }
            #expect(server.totalRequests == 3)
            #expect(server.openConnections == 1)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        try withServer(handler: echoHandler) { _, port in
            let c = try #require(TestClient(port: port))
            c.send(
                "GET /1 HTTP/1.1\r\nHost: h\r\n\r\nPOST /2 HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabcGET /3 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
            )
            let paths = (0..<3).compactMap { _ in c.readResponse()?.header("X-Path") }
            #expect(paths == ["/1", "/2", "/3"])
            #expect(c.waitForClose())
        }
    }

    @Test func chunkedBodyIsDecoded() throws {
        try withServer(handler: echoHandler) { _, port in
            let c = try #require(TestClient(port: port))
            c.send(
                "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nWiki\r\n5\r\npedia\r\n0\r\nT: v\r\n\r\n"
            )
            let r = try #require(c.readResponse())
            #expect(r.bodyString == "Wikipedia")
        }
    }

    @Test func expectContinueSends100BeforeTheBody() throws {
        try withServer(handler: echoHandler) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("POST /e HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            let interim = try #require(c.readResponse())
            #expect(interim.status == 100)
            c.send("body")
            let r = try #require(c.readResponse())
            #expect(r.status == 200)
            #expect(r.bodyString == "body")
        }
    }

    @Test func expectContinueWithTooLargeBodyGets413() throws {
        try withServer(handler: echoHandler) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("POST /e HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 100000000000\r\n\r\n")
            let r = try #require(c.readResponse())
            #expect(r.status == 413)
            #expect(r.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(r.bodyString == "request body exceeds the limit")
            #expect(r.header("Connection") == "close")
            #expect(c.waitForClose())
        }
    }

    @Test func headGetsGetHeadersWithoutBody() throws {
        let handler: HTTPHandler = { _, r in r.respond(.json(200, Array(#"{"a":1}"#.utf8))) }
        try withServer(handler: handler) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("HEAD /h HTTP/1.1\r\nHost: h\r\n\r\nGET /h HTTP/1.1\r\nHost: h\r\n\r\n")
            let head = try #require(c.readResponse(head: true))
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "7")
            let get = try #require(c.readResponse())
            #expect(get.bodyString == #"{"a":1}"#)
        }
    }

    @Test func noContentAndNotModifiedCarryNoBody() throws {
        let handler: HTTPHandler = { req, r in
            r.respond(HTTPResponse(status: req.path == "/204" ? 204 : 304, body: Array("ignored".utf8)))
        }
        try withServer(handler: handler) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("GET /204 HTTP/1.1\r\nHost: h\r\n\r\nGET /304 HTTP/1.1\r\nHost: h\r\n\r\n")
            let a = try #require(c.readResponse())
            #expect(a.status == 204)
            #expect(a.header("Content-Length") == nil)
            let b = try #require(c.readResponse())
            #expect(b.status == 304)
            #expect(c.unread.isEmpty)
        }
    }

    @Test func oversizedHeadGets431AndURI414() throws {
        try withServer(handler: echoHandler) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("GET / HTTP/1.1\r\nHost: h\r\nX-Big: " + String(repeating: "a", count: 20_000) + "\r\n\r\n")
            let r = try #require(c.readResponse())
            #expect(r.status == 431)
            #expect(r.bodyString == "request head too large")
            #expect(c.waitForClose())

            let d = try #require(TestClient(port: port))
            d.send("GET /" + String(repeating: "u", count: 9000) + " HTTP/1.1\r\nHost: h\r\n\r\n")
            let u = try #require(d.readResponse())
            #expect(u.status == 414)
            #expect(u.bodyString == "URI too long")
        }
    }

    @Test func giantContentLengthGets413WithoutSendingTheBody() throws {
        try withServer(handler: echoHandler) { server, port in
            let c = try #require(TestClient(port: port))
            c.send("POST /big HTTP/1.1\r\nHost: h\r\nContent-Length: 100000000000\r\n\r\n")
            let r = try #require(c.readResponse())
            #expect(r.status == 413)
            #expect(c.waitForClose())
            #expect(server.totalRequests == 0)
        }
    }

    @Test func connectionLimitAnswers503() throws {
        var config = testConfiguration()
        config.maxConnections = 2
        try withServer(config, handler: echoHandler) { server, port in
            let a = try #require(TestClient(port: port))
            let b = try #require(TestClient(port: port))
            #expect(waitUntil { server.openConnections == 2 })
            let c = try #require(TestClient(port: port))
            let r = try #require(c.readResponse())
            #expect(r.status == 503)
            #expect(r.header("Retry-After") == "1")
            #expect(r.bodyString == "the server is at its connection limit")
            #expect(c.waitForClose())
            a.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(a.readResponse()?.status == 200)
            _ = b
        }
    }

    @Test func slowHeadTimesOutWith408() throws {
        var config = testConfiguration()
        config.headReadTimeout = .milliseconds(200)
        try withServer(config, handler: echoHandler) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("GET /slow HTTP/1.1\r\nHost: x\r\n")
            let r = try #require(c.readResponse())
            #expect(r.status == 408)
            #expect(r.bodyString == "request head not received in time")
            #expect(c.waitForClose())
        }
    }

    @Test func connectionsAreSpreadEvenlyOverTheLoops() throws {
        var config = testConfiguration()
        config.loopCount = 3
        try withServer(config, handler: echoHandler) { server, port in
            // A burst, as thousands of clients coming back after a restart make it: one loop
            // wakes per connection and takes every one waiting, unless it hands them over.
            let clients = (0..<90).compactMap { _ in TestClient(port: port) }
            #expect(clients.count == 90)
            #expect(waitUntil { server.openConnections == 90 })
            let perLoop = server.connectionsPerLoop
            #expect(perLoop.reduce(0, +) == 90)
            #expect((perLoop.max() ?? 0) - (perLoop.min() ?? 0) <= 1, "\(perLoop)")
            // A handed-over connection is served like any other.
            for (i, c) in clients.enumerated() {
                c.send("GET /spread\(i) HTTP/1.1\r\nHost: h\r\n\r\n")
                #expect(c.readResponse()?.header("X-Path") == "/spread\(i)")
            }
        }
    }

    @Test func idleKeepAliveConnectionIsClosedSilently() throws {
        var config = testConfiguration()
        config.idleTimeout = .milliseconds(200)
        try withServer(config, handler: echoHandler) { server, port in
            let c = try #require(TestClient(port: port))
            c.send("GET /i HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(c.readResponse()?.status == 200)
            #expect(c.waitForClose())
            #expect(c.unread.isEmpty)
            #expect(waitUntil { server.openConnections == 0 })
        }
    }

    @Test func parkedRequestIsCancelledWhenClientDisconnects() throws {
        let cancelled = Box(0)
        let handler: HTTPHandler = { _, responder in
            responder.onCancel { cancelled.update { $0 += 1 } }
        }
        try withServer(handler: handler) { server, port in
            var c = TestClient(port: port)
            c?.send("GET /wait HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(waitUntil { server.parkedRequests == 1 })
            c = nil
            #expect(waitUntil { cancelled.get() == 1 })
            #expect(waitUntil { server.parkedRequests == 0 && server.openConnections == 0 })
            #expect(cancelled.get() == 1)
        }
    }

    @Test func halfClosedParkedRequestIsReleased() throws {
        let cancelled = Box(false)
        let handler: HTTPHandler = { _, responder in responder.onCancel { cancelled.update { $0 = true } } }
        try withServer(handler: handler) { server, port in
            let c = try #require(TestClient(port: port))
            c.send("GET /wait HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(waitUntil { server.parkedRequests == 1 })
            c.shutdownWrite()
            #expect(waitUntil { cancelled.get() })
            #expect(c.waitForClose())
        }
    }

    @Test func parkedRequestIsAnsweredFromAnotherThread() throws {
        let parked = Box<[HTTPResponder]>([])
        let handler: HTTPHandler = { _, responder in parked.update { $0.append(responder) } }
        try withServer(handler: handler) { server, port in
            let clients = (0..<20).compactMap { _ in TestClient(port: port) }
            for c in clients { c.send("GET /p HTTP/1.1\r\nHost: h\r\n\r\n") }
            #expect(waitUntil { server.parkedRequests == 20 })
            let body = Array(repeating: UInt8(ascii: "z"), count: 10_000)
            let responders = parked.get()
            DispatchQueue.global().async {
                for r in responders {
                    r.respond(.json(200, body))
                    r.respond(.json(500, []))  // ignored: second respond
                }
            }
            for c in clients {
                let r = try #require(c.readResponse())
                #expect(r.status == 200)
                #expect(r.body == body)
            }
            #expect(server.parkedRequests == 0)
            #expect(responders.allSatisfy { !$0.isCancelled })
        }
    }

    @Test func gracefulShutdownAnswersParkedAndFinishesInFlight() throws {
        let parked = Box<[HTTPResponder]>([])
        let inflight = Box<[HTTPResponder]>([])
        let handler: HTTPHandler = { req, responder in
            if req.path == "/park" {
                parked.update { $0.append(responder) }
            } else {
                inflight.update { $0.append(responder) }
            }
        }
        let server = HTTPServer(configuration: testConfiguration(), logger: Logger(level: .error), handler: handler)
        server.onShutdown {
            for r in parked.get() { r.respond(.json(200, Array("bye".utf8))) }
        }
        try server.start()
        let port = server.localPort
        var a = TestClient(port: port)
        var b = TestClient(port: port)
        let idle = try #require(TestClient(port: port))
        a?.send("GET /park HTTP/1.1\r\nHost: h\r\n\r\n")
        b?.send("GET /inflight HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(waitUntil { server.parkedRequests == 2 && server.openConnections == 3 })
        let done = Box(false)
        DispatchQueue.global().async {
            server.shutdown(gracePeriod: .seconds(10))
            done.update { $0 = true }
        }
        let ra = try #require(a?.readResponse())
        #expect(ra.bodyString == "bye")
        #expect(ra.header("Connection") == "close")
        a = nil
        #expect(idle.waitForClose())
        #expect(TestClient(port: port) == nil)
        #expect(!done.get())
        for r in inflight.get() { r.respond(.json(201, Array("late".utf8))) }
        let rb = try #require(b?.readResponse())
        #expect(rb.status == 201)
        #expect(rb.bodyString == "late")
        #expect(rb.header("Connection") == "close")
        b = nil
        #expect(waitUntil(10) { done.get() })
        server.waitUntilStopped()
        server.shutdown()  // idempotent
        #expect(server.openConnections == 0)
    }

    @Test func requestIdIsEchoedOrGenerated() throws {
        try withServer(handler: echoHandler) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("GET / HTTP/1.1\r\nHost: h\r\nX-Request-Id: abc-123\r\n\r\n")
            #expect(c.readResponse()?.header("X-Request-Id") == "abc-123")
            c.send("GET / HTTP/1.1\r\nHost: h\r\nX-Request-Id: " + String(repeating: "x", count: 200) + "\r\n\r\n")
            let generated = c.readResponse()?.header("X-Request-Id")
            #expect(generated != nil && generated!.count < 40)
            c.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            let other = c.readResponse()?.header("X-Request-Id")
            #expect(other != nil && other != generated)
        }
    }

    @Test func clientThatNeverReadsDoesNotMakeTheServerBuffer() throws {
        let big = [UInt8](repeating: 0x62, count: 512 * 1024)
        let calls = Box(0)
        let handler: HTTPHandler = { _, r in
            calls.update { $0 += 1 }
            r.respond(HTTPResponse(status: 200, body: big))
        }
        try withServer(handler: handler) { _, port in
            let c = try #require(TestClient(port: port, receiveTimeout: 10))
            let total = 100
            c.send(String(repeating: "GET /big HTTP/1.1\r\nHost: h\r\n\r\n", count: total))
            #expect(waitUntil { calls.get() >= 1 })
            // Socket buffers hold a few responses at most; the server must stop processing the pipeline.
            #expect(!waitUntil(1) { calls.get() >= total })
            #expect(calls.get() < 50)
            for _ in 0..<total {
                let r = try #require(c.readResponse())
                #expect(r.body.count == big.count)
            }
            #expect(calls.get() == total)
        }
    }

    @Test func http10KeepAliveIsOptIn() throws {
        try withServer(handler: echoHandler) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(c.readResponse()?.header("Connection") == "keep-alive")
            c.send("GET /b HTTP/1.0\r\n\r\n")
            #expect(c.readResponse()?.header("Connection") == "close")
            #expect(c.waitForClose())
        }
    }

    @Test(arguments: [
        "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nX: \u{7}\r\n\r\n",
        "GET /\u{0} HTTP/1.1\r\nHost: h\r\n\r\n",
        "garbage\r\n\r\n",
    ])
    func malformedRequestGets400AndClose(_ raw: String) throws {
        try withServer(handler: echoHandler) { server, port in
            let c = try #require(TestClient(port: port))
            c.send(raw)
            let r = try #require(c.readResponse())
            #expect(r.status == 400)
            #expect(r.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(!r.body.isEmpty)
            #expect(c.waitForClose())
            #expect(server.totalRequests == 0)
        }
    }

    @Test func pipelinedRequestWaitsBehindAParkedOne() throws {
        let parked = Box<HTTPResponder?>(nil)
        let handler: HTTPHandler = { req, responder in
            if req.path == "/slow" {
                parked.update { $0 = responder }
            } else {
                responder.respond(.json(200, Array(req.path.utf8)))
            }
        }
        try withServer(handler: handler) { server, port in
            let c = try #require(TestClient(port: port))
            c.send("GET /slow HTTP/1.1\r\nHost: h\r\n\r\nGET /fast HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(waitUntil { server.parkedRequests == 1 })
            // One request at a time per connection: /fast is not even parsed while /slow is parked.
            #expect(server.totalRequests == 1)
            let responder = try #require(parked.get())
            responder.respond(.json(200, Array("/slow".utf8)))
            #expect(c.readResponse()?.bodyString == "/slow")
            #expect(c.readResponse()?.bodyString == "/fast")
            #expect(server.totalRequests == 2)
        }
    }

    @Test func onCancelAfterCancellationRunsImmediately() throws {
        let parked = Box<HTTPResponder?>(nil)
        let handler: HTTPHandler = { _, responder in parked.update { $0 = responder } }
        try withServer(handler: handler) { server, port in
            var c = TestClient(port: port)
            c?.send("GET /w HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(waitUntil { server.parkedRequests == 1 })
            let responder = try #require(parked.get())
            #expect(!responder.isCancelled)
            c = nil
            #expect(waitUntil { responder.isCancelled })
            let ran = Box(false)
            responder.onCancel { ran.update { $0 = true } }
            #expect(ran.get())
            responder.respond(.json(200, []))  // ignored after cancellation
            #expect(server.parkedRequests == 0)
        }
    }
}
