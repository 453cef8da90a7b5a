import HTTPClient
import RecentsCore
import Testing

@testable import RecentsCLI
@testable import RecentsClientCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// The command line's transport under `RecentsClient`: long-poll `follow`, and cancellation.
@Suite(.timeLimit(.minutes(2)))
struct SocketTransportTests {
    /// A server metric read with a plain request.
    func metric(_ name: String, _ server: TestApp) throws -> Int? {
        let connection = try HTTPConnection(port: server.app.port)
        let text = try connection.request("GET", "/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") }
    }

    /// Polls a metric until it has `value` (the server reaches it asynchronously).
    func awaitMetric(_ name: String, _ value: Int, _ server: TestApp) async throws -> Bool {
        for _ in 0..<3000 {
            if try metric(name, server) == value { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func followLongPollsThroughTheSocketTransport() async throws {
        let server = try TestApp()
        let client = try CLI.client(host: "127.0.0.1", port: server.app.port, token: nil)
        let options = FollowOptions(wait: 30, useEventStream: false)
        let (delivered, deliver) = AsyncStream.makeStream(of: TransitionEvent.self)
        let consumer = Task {
            for try await event in client.follow(list: "demo", options: options) { deliver.yield(event) }
        }
        var events = delivered.makeAsyncIterator()
        var model = ListModel()
        let initial = try #require(await events.next())
        _ = try model.apply(initial)
        #expect(initial.isInitial && initial.to == 0 && !initial.json.isEmpty)
        // The consumer waits for the next event: the follower's long-poll is parked on the server.
        #expect(try await awaitMetric("recents_parked_long_polls", 1, server))
        let call = NewCall(id: "c-1", peer: .init(id: "bob"), direction: .incoming, timestamp: 1_764_460_800)
        try await client.postCalls([call], to: "demo")
        let change = try #require(await events.next())
        _ = try model.apply(change)
        #expect(change.from == 0 && change.transition.inserts.map(\.id) == ["c-1"])
        #expect(model.rowIds == (try await client.rows(of: "demo")).rows.map(\.id))
        consumer.cancel()
        _ = await consumer.result
        #expect(try await awaitMetric("recents_parked_long_polls", 0, server))
    }

    @Test func cancellingWakesAParkedLongPollAtOnce() async throws {
        let server = try TestApp()
        let client = try CLI.client(host: "127.0.0.1", port: server.app.port, token: nil)
        _ = try await client.transition(of: "demo")
        let poll = Task { try await client.transition(of: "demo", since: 0, wait: 30) }
        #expect(try await awaitMetric("recents_parked_long_polls", 1, server))
        poll.cancel()
        // Without the socket shut down, the poll would be answered (200, "nothing to do") after 30 s.
        await #expect(throws: RecentsClientError.cancelled) { try await poll.value }
        #expect(try await awaitMetric("recents_parked_long_polls", 0, server))
    }

    @Test func closingAStreamClosesItsConnection() async throws {
        let server = try TestApp()
        let target = "http://127.0.0.1:\(server.app.port)/v1/lists/demo/events"
        let request = try TransportRequest(
            method: "GET", url: #require(URL(string: target)), headers: [("Accept", "text/event-stream")], timeout: 60)
        let stream = SocketTransport().stream(request, capacity: 8)
        var parts = stream.parts.makeAsyncIterator()
        guard case .head(let status, _) = try #require(try await parts.next()) else {
            Issue.record("the first part is not the head")
            return
        }
        #expect(status == 200)
        #expect(try await awaitMetric("recents_open_event_streams", 1, server))
        stream.close()
        #expect(try await awaitMetric("recents_open_event_streams", 0, server))
    }

    @Test func onlyPlainHTTPURLsAreAccepted() throws {
        #expect(throws: RecentsClientError.self) { try SocketTarget(#require(URL(string: "https://example.com/x"))) }
        let target = try SocketTarget(#require(URL(string: "http://[::1]:8080/v1/lists/a%2Fb?since=1")))
        #expect(target.host == "::1" && target.port == 8080 && target.target == "/v1/lists/a%2Fb?since=1")
    }
}
