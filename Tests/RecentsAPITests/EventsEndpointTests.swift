import Foundation
import HTTPClient
import RecentsCore
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// `GET …/events` over real sockets: framing, the first event, one event per change, resume,
/// every 410 and resync, heartbeat, max-age, shutdown and coexistence with long-polls.
@Suite struct EventsEndpointTests {
    static let day = RowsEndpointTests.day

    @discardableResult
    func post(_ server: TestServer, _ call: String, list: String = "alice") throws -> Int {
        int(try server.request("POST", "/v1/lists/\(list)/calls", body: call).json["version"]) ?? -1
    }

    func rows(_ server: TestServer, _ query: String = "") throws -> RowsReply {
        try server.request("GET", "/v1/lists/alice/rows?\(query)").decode(RowsReply.self)
    }

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

    @Test(arguments: Backend.available)
    func theFirstEventIsSentEvenWhenEmpty(backend: Backend) throws {
        let server = try TestServer(backend, socket: true)
        try post(server, callJSON("c-1", timestamp: Self.day))
        let stream = try EventStreamClient(server, "/v1/lists/alice/events?since=1&epoch=\(server.epoch)")
        let first = try stream.nextTransition()
        #expect(first.from == 1 && first.to == 1 && first.isEmpty)
        // A list never written is live too, at version 0.
        let empty = try EventStreamClient(server, "/v1/lists/nobody/events")
        let initial = try empty.next()
        #expect(initial.id == "\(server.epoch).0")
        #expect(try initial.transition().reason == .initial)
    }

    @Test(arguments: Backend.available)
    func eachChangeOfTheViewIsOneEventAndOtherWritesSendNothing(backend: Backend) throws {
        let server = try TestServer(backend, socket: true)
        try post(server, callJSON("c-1", endReason: "missed", timestamp: Self.day))
        let stream = try EventStreamClient(server, "/v1/lists/alice/events?filter=missed")
        let first = try stream.nextTransition()
        #expect(first.to == 1)
        var view = first.apply(to: [])
        // Another list, and a call this view (missed only) does not show: no event for either.
        try post(server, callJSON("x-1", timestamp: Self.day), list: "bob")
        try post(server, callJSON("c-2", peer: "carol", endReason: "hangup", timestamp: Self.day + 10))
        // The marker: the next event must be about it, so nothing was sent for the two above.
        let marker = try post(server, callJSON("c-3", peer: "dave", endReason: "missed", timestamp: Self.day + 20))
        let next = try stream.nextTransition()
        #expect(next.to == Int64(marker))
        #expect(next.inserts.map(\.id) == ["c-3"])
        #expect(next.deletes.isEmpty)
        view = next.apply(to: view)
        #expect(view == (try rows(server, "filter=missed").rows))
    }

    /// `includeEmpty=true`: a write that leaves the view as it was is an empty event too, from the
    /// version before, so the client learns every version (tabs of other views share its stream).
    @Test(arguments: Backend.available)
    func includeEmptySendsEveryVersionAlsoWhenTheViewStaysAsItWas(backend: Backend) throws {
        let server = try TestServer(backend, socket: true)
        try post(server, callJSON("c-1", endReason: "missed", timestamp: Self.day))
        let every = try EventStreamClient(server, "/v1/lists/alice/events?filter=missed&includeEmpty=true")
        let plain = try EventStreamClient(server, "/v1/lists/alice/events?filter=missed&includeEmpty=false")
        #expect(try every.nextTransition().to == 1)
        #expect(try plain.nextTransition().to == 1)
        // A call this view (missed only) does not show.
        let hidden = Int64(
            try post(server, callJSON("c-2", peer: "carol", endReason: "hangup", timestamp: Self.day + 9)))
        let empty = try every.nextTransition()
        #expect(empty.from == 1 && empty.to == hidden && empty.isEmpty)
        let marker = Int64(
            try post(server, callJSON("c-3", peer: "dave", endReason: "missed", timestamp: Self.day + 20)))
        let next = try every.nextTransition()
        #expect(next.from == hidden && next.to == marker && next.inserts.map(\.id) == ["c-3"])
        // Without it, the hidden call sent nothing: the next event goes from 1 to the marker.
        let plainNext = try plain.nextTransition()
        #expect(plainNext.from == 1 && plainNext.to == marker)
    }

    @Test(arguments: Backend.available)
    func lastEventIdResumesWhereTheClientLeft(backend: Backend) throws {
        let server = try TestServer(backend, socket: true)
        try post(server, callJSON("c-1", timestamp: Self.day))
        let id: String
        let view: [Row]
        do {
            let stream = try EventStreamClient(server, "/v1/lists/alice/events")
            let first = try stream.next()
            id = try #require(first.id)
            view = try first.transition().apply(to: [])
        }
        try post(server, callJSON("c-2", peer: "carol", timestamp: Self.day + 10))
        try post(server, callJSON("c-3", peer: "dave", timestamp: Self.day + 20))
        // The header wins over since/epoch in the query.
        let resumed = try EventStreamClient(
            server, "/v1/lists/alice/events?since=0&epoch=other", headers: [("Last-Event-ID", id)])
        let next = try resumed.nextTransition()
        #expect(next.from == 1 && next.to == 3)
        #expect(next.apply(to: view) == (try rows(server).rows))
    }

    @Test(arguments: Backend.available)
    func lostVersionsAre410BeforeTheStreamStarts(backend: Backend) throws {
        let server = try TestServer(backend, socket: true) { $0.store.retainVersions = 1 }
        for index in 1...3 { try post(server, callJSON("c-\(index)", timestamp: Self.day + index)) }
        let epoch = server.epoch
        let cases: [(String, [(String, String)])] = [
            ("since=9&epoch=\(epoch)", []),
            ("since=1", []),
            ("since=3&epoch=other", []),
            ("", [("Last-Event-ID", "other.3")]),
            ("", [("Last-Event-ID", "\(epoch).1")]),
            ("", [("Last-Event-ID", "\(epoch).9")]),
        ]
        for (query, headers) in cases {
            let response = try server.request(
                "GET", "/v1/lists/alice/events?\(query)", headers: headers + [("Accept", "text/event-stream")])
            #expect(response.status == 410, "\(query) \(headers)")
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.json["type"] as? String == "resync-required")
            #expect(int(response.json["currentVersion"]) == 3)
        }
    }

    @Test(arguments: Backend.available)
    func badParametersAre400AndAnotherAcceptIs406(backend: Backend) throws {
        let server = try TestServer(backend, socket: true)
        let sse = [("Accept", "text/event-stream")]
        for (query, headers) in [
            ("limit=0", sse), ("since=x", sse), ("filter=odd", sse), ("includeEmpty=1", sse),
            ("", sse + [("Last-Event-ID", "nonsense")]),
        ] {
            let response = try server.request("GET", "/v1/lists/alice/events?\(query)", headers: headers)
            #expect(response.status == 400, "\(query)")
            #expect(response.json["type"] as? String == "bad-request")
        }
        for accept in ["application/json", "text/event-stream;q=0, */*", "text/html"] {
            let response = try server.request("GET", "/v1/lists/alice/events", headers: [("Accept", accept)])
            #expect(response.status == 406, "\(accept)")
            #expect(response.json["type"] as? String == "not-acceptable")
        }
    }

    @Test(
        arguments: [
            (nil, true), ("text/event-stream", true), ("text/*", true), ("*/*", true),
            ("application/json, text/event-stream;q=0.5", true), ("TEXT/EVENT-STREAM", true),
            ("application/json", false), ("text/event-stream;q=0", false), ("*/*;q=0", false),
            ("text/*;q=0, */*", false), ("text/event-stream;q=0.1, text/*;q=0", true),
        ] as [(String?, Bool)])
    func acceptDecidesByTheMostSpecificRange(accept: String?, accepted: Bool) {
        #expect(EventsRequest.accepts(accept) == accepted)
    }

    @Test(arguments: Backend.available)
    func deletingTheListEndsTheStreamWithResync(backend: Backend) throws {
        let server = try TestServer(backend, socket: true)
        try post(server, callJSON("c-1", timestamp: Self.day))
        let stream = try EventStreamClient(server, "/v1/lists/alice/events")
        _ = try stream.nextTransition()
        let deleted = try server.request("DELETE", "/v1/lists/alice")
        let last = try stream.next()
        #expect(last.raw == "event: resync\ndata: {\"currentVersion\":\(int(deleted.json["version"]) ?? -1)}\n\n")
        try stream.readToEnd()
        #expect(stream.isDrained)
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
    func aHeartbeatCommentKeepsAnIdleStreamAlive(backend: Backend) throws {
        let server = try TestServer(backend, socket: true) { $0.events.heartbeat = .milliseconds(20) }
        let stream = try EventStreamClient(server, "/v1/lists/alice/events")
        _ = try stream.nextTransition()
        #expect(try stream.next().raw == ": keep-alive\n\n")
        #expect(try stream.next().raw == ": keep-alive\n\n")
        // Events still come between heartbeats.
        let version = try post(server, callJSON("c-1", timestamp: Self.day))
        #expect(try stream.nextTransition().to == Int64(version))
    }

    @Test(arguments: Backend.available)
    func onlyTheFirstEventSetsAJitteredReconnectionTime(backend: Backend) throws {
        let server = try TestServer(backend, socket: true) {
            $0.events.reconnect = .milliseconds(1000)
            $0.events.reconnectJitter = .milliseconds(2000)
        }
        var waits: Set<Int> = []
        for _ in 0..<8 {
            let stream = try EventStreamClient(server, "/v1/lists/alice/events")
            let first = try stream.next()
            let retry = try #require(first.retry)
            #expect((1000...3000).contains(retry))
            #expect(first.event == "transition" && first.raw.hasPrefix("retry: "))
            waits.insert(retry)
            if waits.count == 1 {
                _ = try post(server, callJSON("c-retry", timestamp: Self.day))
                #expect(try stream.next().retry == nil)
            }
        }
        // Eight draws from 2,001 values: all equal only if the jitter were missing.
        #expect(waits.count > 1)
    }

    @Test(arguments: Backend.available)
    func aStreamEndsCleanlyAtItsMaxAgeAndTheConnectionServesOn(backend: Backend) throws {
        let server = try TestServer(backend, socket: true) { $0.events.maxAge = .milliseconds(100) }
        let stream = try EventStreamClient(server, "/v1/lists/alice/events")
        _ = try stream.nextTransition()
        try stream.readToEnd()
        #expect(stream.isDrained)
        #expect(try gauge(server, "recents_open_event_streams") == 0)
        let health = try stream.connection.request("GET", "/healthz")
        #expect(health.status == 200)
    }

    @Test(arguments: Backend.available)
    func shutdownEndsOpenStreams(backend: Backend) throws {
        let server = try TestServer(backend, socket: true)
        let streams = try (0..<3).map { _ in try EventStreamClient(server, "/v1/lists/alice/events") }
        for stream in streams { _ = try stream.nextTransition() }
        server.shutdown()
        for stream in streams {
            try stream.readToEnd()
            #expect(stream.isDrained)
            #expect(stream.connection.waitForClose())
        }
    }

    @Test(arguments: Backend.available)
    func streamsAndParkedLongPollsOnOneListAreBothAnswered(backend: Backend) throws {
        let server = try TestServer(backend, socket: true)
        try post(server, callJSON("c-1", timestamp: Self.day))
        let stream = try EventStreamClient(server, "/v1/lists/alice/events?since=1&epoch=\(server.epoch)")
        _ = try stream.nextTransition()
        let poll = try server.client()
        try poll.sendRaw(Array("GET /v1/lists/alice/transitions?since=1&wait=20 HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        try waitUntilParked(server, 1)
        let version = try post(server, callJSON("c-2", peer: "carol", timestamp: Self.day + 10))
        let answer = try poll.readResponse().decode(TransitionReply.self)
        let event = try stream.nextTransition()
        #expect(answer.to == Int64(version) && event.to == Int64(version))
        #expect(answer.inserts.map(\.id) == event.inserts.map(\.id))
    }

    /// A gauge of /metrics.
    private func gauge(_ server: TestServer, _ name: String) throws -> Int {
        let text = try server.request("GET", "/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return Int(line?.split(separator: " ").last ?? "") ?? -1
    }

    /// Waits (on the server's own gauge, with a deadline) until `count` long-polls are parked.
    private func waitUntilParked(_ server: TestServer, _ count: Int) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try gauge(server, "recents_parked_long_polls") < count {
            guard ContinuousClock.now < deadline else { throw TestClientError(description: "never parked") }
        }
    }
}
