import Foundation
import HTTPClient
import RecentsCore
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// `GET …/events` in process, on a clock the tests advance: the first event, one event per
/// change, resume, every 410 and resync, heartbeat, max-age, shutdown and coexistence with
/// long-polls. What only the wire shows (framing, backpressure, the connection) is `EventsWireTests`.
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
    func theFirstEventIsSentEvenWhenEmpty(backend: Backend) throws {
        let server = try TestServer(backend)
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
        let server = try TestServer(backend)
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
        let server = try TestServer(backend)
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
        let server = try TestServer(backend)
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
        let server = try TestServer(backend) { $0.store.retainVersions = 1 }
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
        let server = try TestServer(backend)
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
        let server = try TestServer(backend)
        try post(server, callJSON("c-1", timestamp: Self.day))
        let stream = try EventStreamClient(server, "/v1/lists/alice/events")
        _ = try stream.nextTransition()
        let deleted = try server.request("DELETE", "/v1/lists/alice")
        let last = try stream.next()
        #expect(last.raw == "event: resync\ndata: {\"currentVersion\":\(int(deleted.json["version"]) ?? -1)}\n\n")
        try stream.readToEnd()
        #expect(stream.isDrained)
    }

    @Test(arguments: Backend.available)
    func aHeartbeatCommentKeepsAnIdleStreamAlive(backend: Backend) throws {
        let clock = ManualClock()
        let server = try TestServer(backend) { $0.clock = .manual(clock) }
        let stream = try EventStreamClient(server, "/v1/lists/alice/events")
        _ = try stream.nextTransition()
        try server.waitUntilStreamsSettle()
        // Each `heartbeat` (15 s) one comment, and nothing before it is due.
        clock.advance(by: .seconds(14))
        #expect(stream.hasNothingNew)
        clock.advance(by: .seconds(1))
        #expect(try stream.next().raw == ": keep-alive\n\n")
        try server.waitUntilStreamsSettle()
        clock.advance(by: .seconds(15))
        #expect(try stream.next().raw == ": keep-alive\n\n")
        // Events still come between heartbeats.
        let version = try post(server, callJSON("c-1", timestamp: Self.day))
        #expect(try stream.nextTransition().to == Int64(version))
    }

    @Test(arguments: Backend.available)
    func onlyTheFirstEventSetsAJitteredReconnectionTime(backend: Backend) throws {
        let server = try TestServer(backend) {
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

    /// A stream lives `maxAge` plus up to a fifth of it, at random, then ends cleanly.
    @Test(arguments: Backend.available)
    func aStreamEndsCleanlyAtItsMaxAge(backend: Backend) throws {
        let clock = ManualClock()
        let server = try TestServer(backend) { $0.clock = .manual(clock) }
        let stream = try EventStreamClient(server, "/v1/lists/alice/events")
        _ = try stream.nextTransition()
        // Heartbeats (every 15 s) go on until then; the stream is still open just before 300 s.
        clock.advance(by: .seconds(299))
        #expect(!stream.hasEnded)
        #expect(try server.gauge("recents_open_event_streams") == 1)
        clock.advance(by: .seconds(61))
        try stream.readToEnd()
        // Nothing but heartbeats before the end: the stream ends cleanly, with no last event.
        #expect(throws: TestClientError.self) { try stream.next(skippingComments: true) }
        #expect(try server.gauge("recents_open_event_streams") == 0)
    }

    @Test(arguments: Backend.available)
    func streamsAndParkedLongPollsOnOneListAreBothAnswered(backend: Backend) throws {
        let server = try TestServer(backend)
        try post(server, callJSON("c-1", timestamp: Self.day))
        let stream = try EventStreamClient(server, "/v1/lists/alice/events?since=1&epoch=\(server.epoch)")
        _ = try stream.nextTransition()
        let poll = try server.begin("GET", "/v1/lists/alice/transitions?since=1&wait=20")
        #expect(try server.waitForParked(1))
        let version = try post(server, callJSON("c-2", peer: "carol", timestamp: Self.day + 10))
        let answer = try server.finish(poll).decode(TransitionReply.self)
        let event = try stream.nextTransition()
        #expect(answer.to == Int64(version) && event.to == Int64(version))
        #expect(answer.inserts.map(\.id) == event.inserts.map(\.id))
    }
}
