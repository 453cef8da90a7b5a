import Foundation
import RecentsClient
import RecentsCore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("follow against a live server", .timeLimit(.minutes(3)))
struct FollowTests {
    /// Short backoff so reconnect tests finish quickly; a bound on failures so a broken test ends.
    /// These tests hold the long-poll transport to its promises (parked polls, one transition for
    /// a backlog), so they keep off the event stream the server now has; the last test follows it.
    static let options = FollowOptions(
        wait: 30, useEventStream: false, initialBackoff: 0.02, maximumBackoff: 0.2, maximumFailures: 200)

    static func call(_ id: String, _ timestamp: Int64, peer: String = "bob") -> NewCall {
        NewCall(id: id, peer: .init(id: peer), direction: .incoming, endReason: .missed, timestamp: timestamp)
    }

    /// The next event, applied to `model` and validated.
    func next(
        _ iterator: inout AsyncThrowingStream<TransitionEvent, any Error>.Iterator, into model: inout ListModel
    ) async throws -> TransitionEvent {
        let event = try #require(try await iterator.next())
        try applyValidated(event, to: &model, "event \(event.from ?? -1)→\(event.to)")
        return event
    }

    /// A long-poll follower of alice on `client` and the model it keeps, past its first event.
    func followAlice(
        _ client: RecentsClient
    ) async throws -> (AsyncThrowingStream<TransitionEvent, any Error>.Iterator, ListModel) {
        var model = ListModel()
        var iterator = client.follow(list: "alice", options: Self.options).makeAsyncIterator()
        _ = try await next(&iterator, into: &model)
        return (iterator, model)
    }

    /// The number on the `name` line of `GET /metrics`.
    func metric(_ name: String, _ server: LiveServer) async throws -> Int? {
        let (data, _) = try await URLSession.shared.data(from: server.url.appendingPathComponent("metrics"))
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") }
    }

    /// Polls a server metric until it has `value` (a state the server reaches asynchronously), within 60 s.
    func awaitMetric(_ name: String, _ value: Int, _ server: LiveServer) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if try await metric(name, server) == value { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func deliversTheInitialLoadThenEachChange() async throws {
        let server = try LiveServer()
        let client = server.client()
        var model = ListModel()
        var iterator = client.follow(list: "alice", options: Self.options).makeAsyncIterator()
        let initial = try await next(&iterator, into: &model)
        #expect(initial.isInitial && initial.to == 0 && model.rows.isEmpty)
        try await client.postCalls([Self.call("c-1", 1_764_460_800)], to: "alice")
        let first = try await next(&iterator, into: &model)
        #expect(first.from == 0 && first.transition.inserts.map(\.id) == ["c-1"])
        try await client.postCalls([Self.call("c-2", 1_764_500_000, peer: "carol")], to: "alice")
        try await client.reveal(row: "c-1", in: "alice", revealed: true)
        while model.version != 3 { _ = try await next(&iterator, into: &model) }
        expectModel(model, equals: try await client.rows(of: "alice"), "after three writes")
    }

    @Test func resyncsWithAnInitialTransitionWhenTheListIsDeleted() async throws {
        let server = try LiveServer()
        let client = server.client()
        try await client.postCalls([Self.call("c-1", 1_764_460_800), Self.call("c-2", 1_764_560_800)], to: "alice")
        var model = ListModel()
        var iterator = client.follow(list: "alice", options: Self.options).makeAsyncIterator()
        _ = try await next(&iterator, into: &model)
        #expect(model.rowIds == ["c-2", "c-1"])
        try await client.deleteList("alice")
        try await client.postCalls([Self.call("c-9", 1_764_660_800)], to: "alice")
        let resync = try await next(&iterator, into: &model)
        #expect(resync.isInitial)
        expectModel(model, equals: try await client.rows(of: "alice"), "after the resync")
    }

    @Test func resumingFromAVersionNoLongerRetainedResyncs() async throws {
        let server = try LiveServer { $0.store.retainVersions = 2 }
        let client = server.client()
        var model = ListModel()
        try applyValidated(try await client.transition(of: "alice"), to: &model, "initial")
        for index in 1...6 {
            try await client.postCalls([Self.call("c-\(index)", 1_764_460_800 + Int64(index))], to: "alice")
        }
        var iterator = client.follow(list: "alice", resuming: model, options: Self.options).makeAsyncIterator()
        let event = try await next(&iterator, into: &model)
        #expect(event.isInitial)
        expectModel(model, equals: try await client.rows(of: "alice"), "after resuming from version 0")
    }

    @Test func resumingFromARetainedVersionWithAnotherViewSendsTheViewChange() async throws {
        let server = try LiveServer()
        let client = server.client()
        try await client.postCalls([Self.call("c-1", 1_764_460_800), Self.call("c-2", 1_764_560_800)], to: "alice")
        var model = ListModel(view: ViewParameters(filter: .missed))
        try applyValidated(try await client.transition(of: "alice", view: model.view), to: &model, "initial")
        let tab = ViewParameters(limit: 1)
        var iterator = client.follow(list: "alice", view: tab, resuming: model, options: Self.options)
            .makeAsyncIterator()
        let event = try await next(&iterator, into: &model)
        #expect(event.transition.reason == .reloadAnimated && !event.isInitial)
        expectModel(model, equals: try await client.rows(of: "alice", view: tab), "after the tab switch")
    }

    @Test func reconnectsAfterTheServerRestarts() async throws {
        let server = try LiveServer()
        let client = server.client()
        var (iterator, model) = try await followAlice(client)
        // Stop while the follower has nothing parked, then while it retries, start again and write.
        server.stop()
        try server.restart()
        try await client.postCalls([Self.call("c-1", 1_764_460_800)], to: "alice")
        let event = try await next(&iterator, into: &model)
        #expect(event.transition.inserts.map(\.id) == ["c-1"])
        expectModel(model, equals: try await client.rows(of: "alice"), "after the restart")
    }

    @Test func reconnectsWhenTheServerStopsUnderAParkedPoll() async throws {
        let server = try LiveServer()
        let client = server.client()
        let (iterator, model) = try await followAlice(client)
        let consumer = Task { [iterator, model] in
            var iterator = iterator
            var model = model
            return try await next(&iterator, into: &model)
        }
        #expect(try await awaitMetric("recents_parked_long_polls", 1, server))
        server.stop()
        try server.restart()
        try await client.postCalls([Self.call("c-1", 1_764_460_800)], to: "alice")
        let event = try await consumer.value
        #expect(event.from == 0 && event.transition.inserts.map(\.id) == ["c-1"])
    }

    @Test func cancellingTheConsumerClosesTheConnection() async throws {
        let server = try LiveServer()
        let client = server.client()
        let consumer = Task {
            var count = 0
            for try await _ in client.follow(list: "alice", options: Self.options) { count += 1 }
            return count
        }
        #expect(try await awaitMetric("recents_parked_long_polls", 1, server))
        consumer.cancel()
        // The stream ends at once (not after the 30 s wait), and the server sees the request go.
        #expect(try await consumer.value == 1)
        #expect(try await awaitMetric("recents_parked_long_polls", 0, server))
    }

    @Test func followsOverTheEventStreamOfALiveServer() async throws {
        let server = try LiveServer()
        let client = server.client()
        var model = ListModel()
        var options = Self.options
        options.useEventStream = true
        var iterator = client.follow(list: "alice", options: options).makeAsyncIterator()
        let initial = try await next(&iterator, into: &model)
        #expect(initial.isInitial && initial.to == 0)
        #expect(try await awaitMetric("recents_open_event_streams", 1, server))
        try await client.postCalls([Self.call("c-1", 1_764_460_800)], to: "alice")
        let first = try await next(&iterator, into: &model)
        #expect(first.from == 0 && first.transition.inserts.map(\.id) == ["c-1"])
        expectModel(model, equals: try await client.rows(of: "alice"), "over the event stream")
        #expect(try await metric("recents_parked_long_polls", server) == 0)
    }

    @Test func aSlowConsumerEndsWithTheRightModel() async throws {
        let server = try LiveServer()
        let client = server.client()
        var model = ListModel(view: ViewParameters(limit: 5))
        var iterator = client.follow(list: "alice", view: model.view, options: Self.options).makeAsyncIterator()
        _ = try await next(&iterator, into: &model)
        // 40 writes land while the consumer does not read.
        for index in 1...40 {
            let call = Self.call(
                "c-\(index)", 1_764_460_800 + Int64(index * 5000), peer: index % 3 == 0 ? "carol" : "bob")
            try await client.postCalls([call], to: "alice")
            if index % 7 == 0 { try await client.deleteCall("c-\(index - 1)", from: "alice") }
        }
        let final = try await client.list("alice").version
        var events = 0
        while model.version != final {
            _ = try await next(&iterator, into: &model)
            events += 1
        }
        // Transitions compose: what the consumer missed arrives as one transition, not forty.
        #expect(events == 1)
        expectModel(model, equals: try await client.rows(of: "alice", view: model.view), "after the backlog")
    }

    @Test func aBadListNameEndsTheStreamWithItsProblem() async throws {
        let server = try LiveServer()
        let stream = server.client().follow(list: "al ice", options: Self.options)
        do {
            for try await _ in stream { Issue.record("an invalid list delivered an event") }
            Issue.record("the stream ended without an error")
        } catch let error as RecentsClientError {
            #expect(error.problem?.status == 404)
        }
    }
}
