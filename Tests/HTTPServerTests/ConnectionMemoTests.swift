import Foundation
import HTTPClient
import Testing

@testable import HTTPServer

/// What a handler keeps with `HTTPResponder.remember` reaches the later requests of the same
/// connection, and no other connection's.
@Suite struct ConnectionMemoTests {
    /// A number kept on a connection.
    final class Count: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    /// Answers with what the connection kept (`X-Kept`, "none" at first) and keeps one more; on
    /// `/later` it answers from another thread and tries to keep 99 from there.
    static let handler: HTTPHandler = { request, responder in
        let kept = (request.connectionMemo as? Count)?.value
        var headers = HTTPHeaders()
        headers.add("X-Kept", kept.map(String.init) ?? "none")
        if request.path == "/handed" {
            // Another thread hands the answer back to the connection's thread, where keeping
            // counts again.
            Thread.detachNewThread { [headers] in
                responder.onConnectionThread {
                    responder.remember(Count(7))
                    responder.respond(HTTPResponse(status: 200, headers: headers, body: []))
                }
            }
            return
        }
        if request.path == "/later" {
            Thread.detachNewThread { [headers] in
                responder.remember(Count(99))
                responder.respond(HTTPResponse(status: 200, headers: headers, body: []))
            }
            return
        }
        responder.remember(Count((kept ?? 0) + 1))
        responder.respond(HTTPResponse(status: 200, headers: headers, body: []))
    }

    @Test func aKeptValueReachesTheNextRequestsOfItsConnectionOnly() throws {
        try withServer(handler: Self.handler) { _, port in
            let first = try HTTPConnection(port: port)
            #expect(try first.request("GET", "/").headers["x-kept"] == "none")
            #expect(try first.request("GET", "/").headers["x-kept"] == "1")
            let second = try HTTPConnection(port: port)
            #expect(try second.request("GET", "/").headers["x-kept"] == "none")
            #expect(try first.request("GET", "/").headers["x-kept"] == "2")
        }
    }

    /// Off the loop, after the handler returned, the connection may serve another request or
    /// another client by the time the call comes: nothing is kept.
    @Test func keepingFromAnotherThreadIsIgnored() throws {
        try withServer(handler: Self.handler) { _, port in
            let connection = try HTTPConnection(port: port)
            #expect(try connection.request("GET", "/").headers["x-kept"] == "none")
            #expect(try connection.request("GET", "/later").headers["x-kept"] == "1")
            #expect(try connection.request("GET", "/").headers["x-kept"] == "1")
        }
    }

    /// Work handed to `onConnectionThread` runs on the connection's loop as its request's own
    /// handler would: what it keeps reaches the next request, which a pipelining client sent
    /// before the answer and gets after it.
    @Test func workHandedToTheConnectionsThreadRunsThereAndAnswersInOrder() throws {
        try withServer(handler: Self.handler) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("GET /handed HTTP/1.1\r\nHost: h\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(c.readResponse()?.headers["x-kept"] == "none")
            #expect(c.readResponse()?.headers["x-kept"] == "7")
        }
    }

    @Test func aHandBuiltRequestKeepsNothing() {
        #expect(HTTPRequest(method: .GET, target: "/").connectionMemo == nil)
    }
}
