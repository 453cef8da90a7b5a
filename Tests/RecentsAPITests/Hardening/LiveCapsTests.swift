import Foundation
import HTTPServer
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// One list cannot take a shared limit from the others (issue 38, item 4): each list has caps on
/// its open streams and parked long-polls, and all lists together leave room for other requests.
@Suite struct LiveCapsTests {
    static let stream = [("Accept", "text/event-stream")]

    /// Opens a stream and waits for its first event.
    static func openStream(_ server: TestServer, _ list: String, _ headers: [(String, String)] = []) throws
        -> InProcessExchange
    {
        let exchange = try server.begin("GET", "/v1/lists/\(list)/events", headers: Self.stream + headers)
        exchange.body(within: .seconds(10)) { String(decoding: $0, as: UTF8.self).contains("event: transition") }
        return exchange
    }

    static func expectListFull(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 429, sourceLocation: sourceLocation)
        #expect(response.json["type"] as? String == "too-many-live-requests", sourceLocation: sourceLocation)
        #expect(response.headers["retry-after"] == "5", sourceLocation: sourceLocation)
    }

    @Test(arguments: Backend.available)
    func aListPastItsStreamCapGets429WhileAnotherListStreams(backend: Backend) throws {
        let server = try TestServer(backend) { $0.memory.streamsPerList = 2 }
        let open = try (0..<2).map { _ in try Self.openStream(server, "alice") }
        #expect(open.allSatisfy { $0.response?.status == 200 && !$0.isComplete })
        Self.expectListFull(try server.finish(server.begin("GET", "/v1/lists/alice/events", headers: Self.stream)))
        let bob = try Self.openStream(server, "bob")
        #expect(bob.response?.status == 200 && !bob.isComplete)
        // A stream that ends makes room for the next.
        open[0].cancel()
        #expect(waitUntilOpens { try Self.openStream(server, "alice") })
    }

    @Test(arguments: Backend.available)
    func aListPastItsLongPollCapGets429WhileAnotherListPolls(backend: Backend) throws {
        let server = try TestServer(backend) { $0.memory.longPollsPerList = 2 }
        let parked = try (0..<2).map { _ in
            try server.begin("GET", "/v1/lists/alice/transitions?since=0&wait=30")
        }
        #expect(try server.waitForParked(2))
        Self.expectListFull(try server.request("GET", "/v1/lists/alice/transitions?since=0&wait=30"))
        // Without waiting, and on another list, nothing is refused.
        #expect(try server.request("GET", "/v1/lists/alice/transitions?since=0").status == 200)
        let bob = try server.begin("GET", "/v1/lists/bob/transitions?since=0&wait=30")
        #expect(try server.waitForParked(3))
        for exchange in parked + [bob] { exchange.cancel() }
    }

    /// Streams and parked long-polls of every list together leave an eighth of the connections
    /// for requests that come and go.
    @Test func everyListTogetherLeavesRoomForOtherRequests() throws {
        // 16 connections: 14 for streams and polls, 2 kept.
        let server = try TestServer(.sqlite) { $0.http.maxConnections = 16 }
        let streams = try (0..<10).map { try Self.openStream(server, "list-\($0)") }
        let polls = try (0..<4).map { try server.begin("GET", "/v1/lists/poll-\($0)/transitions?since=0&wait=30") }
        #expect(try server.waitForParked(4))
        let refused = try server.finish(server.begin("GET", "/v1/lists/one-more/events", headers: Self.stream))
        #expect(refused.status == 503 && refused.json["type"] as? String == "overloaded")
        #expect(try server.request("GET", "/v1/lists/one-more/transitions?since=0&wait=30").status == 503)
        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(try server.request("GET", "/v1/lists/one-more/transitions?since=0").status == 200)
        for exchange in streams + polls { exchange.cancel() }
    }
}

/// Whether `open` gives an open stream within 5 s (a cancelled stream leaves its hub on its own time).
private func waitUntilOpens(_ open: () throws -> InProcessExchange) -> Bool {
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
        if let exchange = try? open(), exchange.response?.status == 200 {
            exchange.cancel()
            return true
        }
    }
    return false
}
