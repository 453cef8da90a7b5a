import Foundation
import HTTPClient
import RecentsCore
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// The one suite that keeps the wire honest for live updates, on real sockets: a stream's head and
/// chunked SSE framing byte for byte, backpressure from a reader that stops (kernel buffers, so no
/// in-process double can stand in), a stream's clean end leaving its keep-alive connection
/// serving, shutdown closing connections, and a parked long-poll answered on its connection.
/// Time is still the tests' own: a `ManualClock` ends streams, nothing here waits for it.
@Suite struct EventsWireTests {
    static let day = RowsEndpointTests.day
    /// The in-process suite's helpers (`post`, `rows`): one copy for both.
    private let events = EventsEndpointTests()

    @discardableResult
    func post(_ server: TestServer, _ call: String) throws -> Int { try events.post(server, call) }

    func rows(_ server: TestServer, _ query: String = "") throws -> RowsReply { try events.rows(server, query) }

    @Test(arguments: Backend.available)
    func theHeadAndTheFirstEventAreFramedByteForByte(backend: Backend) throws {
        let server = try TestServer(backend, socket: true) { $0.events.reconnectJitter = .zero }
        try post(server, callJSON("c-1", timestamp: Self.day))
        let stream = try EventStreamClient(server, "/v1/lists/alice/events")
        #expect(stream.head.status == 200)
        #expect(stream.head.header("Content-Type") == "text/event-stream")
        #expect(stream.head.header("Cache-Control") == "no-store")
        #expect(stream.head.header("Transfer-Encoding") == "chunked")
        #expect(stream.head.header("Content-Length") == nil)
        let transitions = try server.request("GET", "/v1/lists/alice/transitions")
        let first = try stream.next()
        #expect(first.raw == "retry: 1000\nid: \(server.epoch).1\nevent: transition\ndata: \(transitions.text)\n\n")
        #expect(try first.transition().apply(to: []) == rows(server).rows)
    }

    /// 500 rows (one peer each), a stream of all of them, and `toggles` writes that each change
    /// every row (editing on, off, …: ~200 KB an event) landing while the client reads nothing,
    /// far more than the kernel's socket buffers hold (a 128 KiB receive buffer, and the 32 KiB
    /// send buffer `EventStreamSettings.sendBuffer` asks for). A smaller receive buffer would not
    /// do: below two segments of loopback's 64 KiB MSS, TCP's silly-window avoidance stalls the
    /// stream on zero-window probes.
    private func slowReader(
        _ server: TestServer, toggles: Int
    ) throws -> (stream: EventStreamClient, view: [Row], last: Int64) {
        let calls = (0..<500).map { callJSON("c-\($0)", peer: "p-\($0)", timestamp: Self.day + $0) }
        try post(server, #"{"calls": [\#(calls.joined(separator: ", "))]}"#)
        let stream = try EventStreamClient(server, "/v1/lists/alice/events?limit=500", receiveBuffer: 128 * 1024)
        let view = try stream.nextTransition().apply(to: [])
        let writer = try HTTPConnection(port: server.port, timeout: .seconds(60))
        var last: Int64 = 1
        for toggle in 0..<toggles {
            let reply = try writer.request(
                "PUT", "/v1/lists/alice/editing", body: #"{"editing": \#(toggle % 2 == 0)}"#)
            last = Int64(int(reply.json["version"]) ?? -1)
        }
        // Toggles can cancel out (an even number leaves the view as it was, and a coalesced
        // stream then rightly sends nothing), so a last write that surely changes the view marks the end.
        let marker = try writer.request(
            "POST", "/v1/lists/alice/calls", body: callJSON("marker", peer: "m", timestamp: Self.day + 1000))
        last = Int64(int(marker.json["version"]) ?? -1)
        return (stream, view, last)
    }

    /// A server whose streams outlive a slow test on a loaded host (no max-age or idle close midway).
    private func patientServer(_ backend: Backend, retainVersions: Int = 1000) throws -> TestServer {
        try TestServer(backend, socket: true) { configuration in
            configuration.store.retainVersions = retainVersions
            configuration.events.maxAge = .seconds(3600)
            configuration.http.idleTimeout = .seconds(3600)
        }
    }

    @Test(arguments: Backend.available)
    func aSlowReaderGetsFewerEventsThatComposeToTheExactView(backend: Backend) throws {
        let server = try patientServer(backend)
        let toggles = 40
        var (stream, view, last) = try slowReader(server, toggles: toggles)
        var events = 0
        var coalesced = false
        var at: Int64 = 1
        while at < last {
            let event = try stream.nextTransition()
            #expect(event.from == at)
            coalesced = coalesced || event.to - at > 1
            view = event.apply(to: view)
            at = event.to
            events += 1
        }
        #expect(at == last)
        // The client read nothing until the last write, so what it gets is what the kernel held
        // (its 256 KiB receive queue and the server's capped 64 KiB send buffer: at most two of
        // these ~200 KB events), the one the server held beyond that, and one coalesced event to
        // the marker. An autotuned send buffer (up to 4 MiB) could hold twenty.
        #expect(events <= 5 && coalesced, "\(events) events for \(toggles) writes")
        #expect(view == (try rows(server, "limit=500").rows))
    }

    @Test(arguments: Backend.available)
    func aReaderSlowerThanTheRetentionIsToldToResync(backend: Backend) throws {
        let server = try patientServer(backend, retainVersions: 5)
        // More writes than the coalescing test: toggles cancel in pairs, so a coalesced event over
        // an even number is empty, and when writes are slower than event building (PostgreSQL's
        // round trips) 40 toggles can leave the kernel's buffers unfilled and the stream caught up.
        let (stream, _, last) = try slowReader(server, toggles: 160)
        var block = try stream.next(skippingComments: true)
        var at: Int64 = 1
        while block.event == "transition" {
            at = try block.transition().to
            // A stream that caught up sends nothing more (heartbeats aside): fail, do not hang.
            if at == last { break }
            block = try stream.next(skippingComments: true)
        }
        guard block.event == "resync" else {
            Issue.record("the stream caught up at \(at) of \(last) without falling behind the retention")
            return
        }
        // Sent when the socket next drained, with the version current then.
        let prefix = "event: resync\ndata: {\"currentVersion\":"
        #expect(block.raw.hasPrefix(prefix) && block.raw.hasSuffix("}\n\n"), "\(block.raw)")
        let current = Int64(block.raw.dropFirst(prefix.count).dropLast(3)) ?? -1
        #expect(current > at + 5 && current <= last)
        try stream.readToEnd()
        #expect(stream.isDrained)
    }

    @Test(arguments: Backend.available)
    func aStreamEndsCleanlyAtItsMaxAgeAndTheConnectionServesOn(backend: Backend) throws {
        let clock = ManualClock()
        let server = try TestServer(backend, socket: true) { $0.clock = .manual(clock) }
        let stream = try EventStreamClient(server, "/v1/lists/alice/events")
        _ = try stream.nextTransition()
        clock.advance(by: .seconds(360))
        try stream.readToEnd()
        // A heartbeat came due first; then the end, with no last event.
        #expect(throws: TestClientError.self) { try stream.next(skippingComments: true) }
        #expect(try server.gauge("recents_open_event_streams") == 0)
        let health = try stream.connection.request("GET", "/healthz")
        #expect(health.status == 200)
    }

    /// Shutdown ends open streams in process too (`LiveUpdates.shutdown`); behind a socket their
    /// connections close after the last chunk.
    @Test(arguments: Backend.available, [false, true])
    func shutdownEndsOpenStreamsAndClosesTheirConnections(backend: Backend, socket: Bool) throws {
        let server = try TestServer(backend, socket: socket)
        let streams = try (0..<3).map { _ in try EventStreamClient(server, "/v1/lists/alice/events") }
        for stream in streams { _ = try stream.nextTransition() }
        server.shutdown()
        for stream in streams {
            try stream.readToEnd()
            #expect(stream.isDrained)
            if socket { #expect(stream.connection.waitForClose()) }
        }
    }

    @Test(arguments: Backend.available)
    func aParkedLongPollIsAnsweredOnItsConnection(backend: Backend) throws {
        let server = try TestServer(backend, socket: true)
        try post(server, callJSON("c-1", timestamp: Self.day))
        let waiter = try server.client()
        try waiter.sendRaw(Array("GET /v1/lists/alice/transitions?since=1&wait=20 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try server.waitForParked(1))
        _ = try post(server, callJSON("c-2", peer: "carol", timestamp: Self.day + 1))
        let response = try waiter.readResponse()
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        #expect(Int(response.header("Content-Length") ?? "") == response.body.count)
        let reply = try response.decode(TransitionReply.self)
        #expect(reply.to == 2 && reply.inserts.map(\.id) == ["c-2"])
        // The connection serves on after a parked answer.
        #expect(try waiter.request("GET", "/healthz").status == 200)
    }

    @Test(arguments: Backend.available)
    func shutdownAnswersParkedLongPollsOnTheirConnections(backend: Backend) throws {
        let server = try TestServer(backend, socket: true)
        let waiter = try server.client()
        try waiter.sendRaw(Array("GET /v1/lists/alice/transitions?since=0&wait=30 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try server.waitForParked(1))
        let started = Date()
        let app = server.app
        Thread.detachNewThread { app.shutdown() }
        let response = try waiter.readResponse()
        #expect(response.status == 200)
        #expect(try response.decode(TransitionReply.self).isEmpty)
        app.waitUntilStopped()
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
