import Glibc
import HTTPClient
import Synchronization
import SystemSupport
import Testing

@testable import HTTPServer

/// The admission hook decides on a request's head before any byte of its body is read (issue 38):
/// a refusal is answered at once and the connection closes, `Expect: 100-continue` gets the
/// refusal instead of 100, and an admitted request reaches the handler whole, with its note.
@Suite struct AdmissionTests {
    /// Refuses every head whose path is `/refused` with 401, and notes the path of the others.
    private static func admission(_ heads: Box<[String]>) -> HTTPAdmission {
        { head, responder in
            heads.update { $0.append(head.path) }
            guard head.path == "/refused" else { return .readBody(note: "noted " + head.path) }
            responder.respond(HTTPResponse(status: 401, body: Array("no token".utf8)))
            return .answered
        }
    }

    /// Answers with the body and the note the admission left.
    private static let echo: HTTPHandler = { request, responder in
        var headers = HTTPHeaders()
        headers.add("X-Note", request.admission as? String ?? "none")
        headers.add("X-Request-Id-Seen", request.requestId)
        responder.respond(HTTPResponse(status: 200, headers: headers, body: request.body))
    }

    private static func configuration(_ heads: Box<[String]>) -> HTTPServerConfiguration {
        var configuration = testConfiguration()
        configuration.admission = admission(heads)
        return configuration
    }

    @Test func aRefusedHeadIsAnsweredBeforeAnyBodyByteAndTheConnectionCloses() throws {
        let heads = Box<[String]>([])
        let handled = Box(0)
        let handler: HTTPHandler = { request, responder in
            handled.update { $0 += 1 }
            AdmissionTests.echo(request, responder)
        }
        try withServer(Self.configuration(heads), handler: handler) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("POST /refused HTTP/1.1\r\nHost: h\r\nContent-Length: 100000\r\n\r\n")
            let r = try #require(c.readResponse())
            #expect(r.status == 401)
            #expect(r.header("Connection") == "close")
            #expect(c.waitForClose())
        }
        #expect(heads.get() == ["/refused"])
        #expect(handled.get() == 0)
    }

    @Test func expectContinueGetsTheRefusalInsteadOf100() throws {
        let heads = Box<[String]>([])
        try withServer(Self.configuration(heads), handler: Self.echo) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("POST /refused HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            #expect(c.readResponse()?.status == 401)
            #expect(c.waitForClose())

            let admitted = try #require(TestClient(port: port))
            admitted.send("POST /fine HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            #expect(admitted.readResponse()?.status == 100)
            admitted.send("body")
            let r = try #require(admitted.readResponse())
            #expect(r.status == 200 && r.bodyString == "body")
        }
    }

    @Test func anAdmittedRequestReachesTheHandlerWholeWithItsNoteOnAKeptConnection() throws {
        let heads = Box<[String]>([])
        try withServer(Self.configuration(heads), handler: Self.echo) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("POST /a HTTP/1.1\r\nHost: h\r\nX-Request-Id: mine-1\r\nContent-Length: 5\r\n\r\nhello")
            let r = try #require(c.readResponse())
            #expect(r.status == 200 && r.bodyString == "hello")
            #expect(r.header("X-Note") == "noted /a")
            #expect(r.header("X-Request-Id") == "mine-1" && r.header("X-Request-Id-Seen") == "mine-1")
            // A request without a body is the handler's alone, as before.
            c.send("GET /b HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(c.readResponse()?.header("X-Note") == "none")
            // A chunked body is a body too.
            c.send("POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
            let chunked = try #require(c.readResponse())
            #expect(chunked.bodyString == "abc" && chunked.header("X-Note") == "noted /c")
        }
        #expect(heads.get() == ["/a", "/c"])
    }

    @Test func inProcessTheSameHookDecidesOnARequestWithABody() throws {
        let heads = Box<[String]>([])
        let connection = InProcessConnection(handler: Self.echo, admission: Self.admission(heads))
        let refused = connection.send(HTTPRequest(method: .POST, target: "/refused", body: Array("x".utf8)))
        #expect(refused.complete(within: .seconds(5))?.status == 401)
        let admitted = connection.send(HTTPRequest(method: .POST, target: "/a", body: Array("x".utf8)))
        #expect(admitted.complete(within: .seconds(5))?.headers["X-Note"] == "noted /a")
        _ = connection.send(HTTPRequest(method: .GET, target: "/b"))
        #expect(heads.get() == ["/refused", "/a"])
    }
}

/// A body's total deadline and the server-wide budget of bodies being received (issue 38).
@Suite struct BodyLimitsTests {
    private static let echo: HTTPHandler = { request, responder in
        responder.respond(HTTPResponse(status: 200, body: request.body))
    }

    @Test func aBodyThatTricklesInGets408AtTheBodyTimeoutThoughItIsNeverIdle() throws {
        var configuration = testConfiguration()
        configuration.bodyTimeout = .milliseconds(600)
        configuration.idleTimeout = .seconds(60)
        try withServer(configuration, handler: Self.echo) { _, port in
            // Each read waits 50 ms for an answer: a byte every 50 ms, far inside the idle timeout.
            let c = try #require(TestClient(port: port, receiveTimeout: 0.05))
            c.send("POST /slow HTTP/1.1\r\nHost: h\r\nContent-Length: 1000\r\n\r\n")
            var answer: HTTPClientResponse?
            for _ in 0..<200 where answer == nil {
                c.send("x")
                answer = c.readResponse()
            }
            #expect(answer?.status == 408)
            #expect(c.waitForClose())
        }
    }

    @Test func aBodyTheBudgetCannotHoldIs503BeforeAnyOfItIsReadAndTheBudgetComesBack() throws {
        var configuration = testConfiguration()
        configuration.maxBodyMemory = 1000
        let parked = Box<[HTTPResponder]>([])
        let handler: HTTPHandler = { request, responder in
            if request.path == "/hold" { return parked.update { $0.append(responder) } }
            responder.respond(HTTPResponse(status: 200, body: request.body))
        }
        try withServer(configuration, handler: handler) { _, port in
            // 800 bytes held by a request that is not answered yet.
            let holder = try #require(TestClient(port: port))
            holder.send(
                "POST /hold HTTP/1.1\r\nHost: h\r\nContent-Length: 800\r\n\r\n" + String(repeating: "a", count: 800))
            #expect(waitUntil { parked.get().count == 1 })

            let refused = try #require(TestClient(port: port))
            refused.send("POST /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 300\r\n\r\n")
            let answer = try #require(refused.readResponse())
            #expect(answer.status == 503 && answer.header("Retry-After") == "1")
            #expect(refused.waitForClose())

            // A chunked body takes what its chunks announce, as they come.
            let chunked = try #require(TestClient(port: port))
            chunked.send("POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n12c\r\n")
            #expect(chunked.readResponse()?.status == 503)

            // Its answer gives the 800 bytes back.
            for responder in parked.get() { responder.respond(HTTPResponse(status: 204)) }
            #expect(holder.readResponse()?.status == 204)
            let fits = try #require(TestClient(port: port))
            fits.send("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 900\r\n\r\n" + String(repeating: "b", count: 900))
            #expect(fits.readResponse()?.status == 200)
        }
    }
}
