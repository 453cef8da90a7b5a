import Foundation
import HTTPClient
import HTTPServer
import RecentsAuth
import RecentsStore
import RecentsTestSupport
import Synchronization
import Testing

@testable import RecentsAPI

/// Auth and the rate limit decide on a request's head, before any byte of its body is read
/// (issue 38, item 2), with the very middleware every request passes.
@Suite struct HeadAdmissionTests {
    /// A head announcing a 100,000-byte body and sending none of it.
    static func head(_ path: String, token: String?, expectContinue: Bool = false) -> [UInt8] {
        var text = "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n"
        if let token { text += "Authorization: Bearer \(token)\r\n" }
        if expectContinue { text += "Expect: 100-continue\r\n" }
        return Array((text + "\r\n").utf8)
    }

    @Test(arguments: [(nil, 401), ("bob", 403)] as [(String?, Int)])
    func aRefusedHeadIsAnsweredWithoutItsBodyAndClosed(token list: String?, status: Int) throws {
        let server = try TestServer.withAuth(.sqlite, socket: true)
        for expectContinue in [false, true] {
            let connection = try HTTPConnection(port: server.port, timeout: .seconds(5))
            try connection.sendRaw(
                Self.head("/v1/lists/alice/calls", token: list.map { liveToken($0) }, expectContinue: expectContinue))
            let answer = try connection.readResponse()
            #expect(answer.status == status, "Expect: 100-continue \(expectContinue)")
            #expect(answer.headers["connection"] == "close")
            #expect(answer.headers["content-type"] == "application/problem+json")
            #expect(connection.waitForClose())
        }
    }

    @Test func overItsRateAClientIsRefusedAtTheHead() throws {
        let server = try TestServer.withAuth(.sqlite, socket: true) { $0.rateLimit.requestsPerSecond = 1 }
        let token = liveToken("alice")
        for _ in 0..<2 { #expect(try server.request("GET", "/v1/lists/alice", headers: bearer(token)).status == 200) }
        let connection = try HTTPConnection(port: server.port, timeout: .seconds(5))
        try connection.sendRaw(Self.head("/v1/lists/alice/calls", token: token))
        let answer = try connection.readResponse()
        #expect(answer.status == 429 && answer.headers["retry-after"] != nil)
        #expect(connection.waitForClose())
    }

    @Test func aPathNoRouteHasNeedsNoBodyEither() throws {
        let server = try TestServer.withAuth(.sqlite, socket: true)
        let connection = try HTTPConnection(port: server.port, timeout: .seconds(5))
        try connection.sendRaw(Self.head("/v1/nowhere", token: nil))
        #expect(try connection.readResponse().status == 404)
        #expect(connection.waitForClose())
    }

    @Test func anAdmittedWriteIsAnsweredAsBeforeAndKeepsItsConnection() throws {
        let server = try TestServer.withAuth(.sqlite, socket: true)
        let connection = try server.client()
        let token = liveToken("alice")
        for n in 0..<2 {
            let posted = try connection.request(
                "POST", "/v1/lists/alice/calls", body: callJSON("c-\(n)", timestamp: 1_764_460_800 + n),
                headers: bearer(token) + [("Expect", "100-continue")])
            #expect(posted.status == 201)
        }
        #expect(try connection.request("GET", "/v1/lists/alice", headers: bearer(token)).json["callCount"] as? Int == 2)
    }

    /// The head's decision goes with the request: the middleware's inbound hooks run once, not
    /// again when the body is in, so a token is worked out once.
    @Test func anAdmittedRequestPassesTheMiddlewareOnce() throws {
        let database = try TestDatabase(.sqlite)
        var configuration = AppConfiguration()
        configuration.store.path = database.location
        configuration.authSecret = AuthFixtures.secret
        configuration.logLevel = .error
        let service = try Service.open(configuration)
        defer {
            service.live.shutdown()
            service.store.close()
        }
        let counter = CountingMiddleware()
        let base = Routes.pipeline(service)
        let pipeline = RequestPipeline(
            router: base.router, middleware: [counter] + base.middleware, logger: base.logger,
            compression: base.compression, maxBodyBytes: base.maxBodyBytes)
        let connection = InProcessConnection(handler: pipeline.handler, admission: pipeline.admission)
        var headers = HTTPHeaders()
        headers.add("Host", "x")
        headers.add("Content-Type", "application/json")
        headers.add("Authorization", "Bearer \(liveToken("alice"))")
        let request = HTTPRequest(
            method: .POST, target: "/v1/lists/alice/calls", headers: headers,
            body: Array(callJSON("c-1", timestamp: 1_764_460_800).utf8))
        #expect(connection.send(request).complete(within: .seconds(10))?.status == 201)
        #expect(counter.inbound.load(ordering: .relaxed) == 1)
    }
}

/// Counts the requests whose inbound hook ran.
final class CountingMiddleware: Middleware {
    let inbound = Atomic<Int>(0)

    func inbound(_ exchange: inout Exchange) throws(APIError) {
        inbound.add(1, ordering: .relaxed)
    }
}
