import RecentsClient
import RecentsCore
import Testing

@Suite("RecentsClient endpoints against a live server")
struct EndpointTests {
    let server: LiveServer
    let client: RecentsClient

    init() throws {
        server = try LiveServer()
        client = server.client(token: "secret")
    }

    static let bob = NewCall(
        id: "c-1001", peer: .init(id: "bob", name: "Bob Lee"), direction: .incoming, endReason: .missed,
        timestamp: 1_764_460_800)
    static let carol = NewCall(
        id: "c-1002", peer: .init(id: "carol"), direction: .outgoing, duration: 65, timestamp: 1_764_462_000)

    /// The problem a call throws, or nil when it succeeds.
    func problem(_ body: () async throws -> Void) async -> Problem? {
        do {
            try await body()
            return nil
        } catch {
            return (error as? RecentsClientError)?.problem
        }
    }

    @Test func callsAndLists() async throws {
        #expect(try await client.list("alice").version == 0)
        let posted = try await client.postCalls([Self.bob, Self.carol], to: "alice")
        #expect(posted.version == 1 && posted.calls.map(\.id) == ["c-1001", "c-1002"])
        #expect(posted.calls[1].peer.name == "carol" && posted.calls[1].endReason == .hangup)
        let again = try await client.postCalls([Self.carol], to: "alice")
        #expect(again.version == 1)
        #expect(try await client.call("c-1001", in: "alice").endReason == .missed)
        let summary = try await client.list("alice")
        #expect(summary.callCount == 2 && summary.epoch == posted.epoch && summary.revealedRowId == nil)
        #expect(try await client.deleteCall("c-1001", from: "alice").version == 2)
        #expect(try await client.deleteList("alice").version == 3)
        #expect(try await client.list("alice").callCount == 0)
    }

    @Test func rowsAndTransitions() async throws {
        try await client.postCalls([Self.bob, Self.carol], to: "alice")
        let page = try await client.rows(of: "alice", view: ViewParameters(limit: 1))
        #expect(page.rows.map(\.id) == ["c-1002"] && page.hasMore && page.view == ViewParameters(limit: 1))
        let initial = try await client.transition(of: "alice")
        #expect(initial.isInitial && initial.to == 1 && initial.transition.reason == .initial)
        let missed = try await client.transition(
            of: "alice", since: 1, epoch: initial.epoch, view: ViewParameters(filter: .missed), fromView: .default)
        #expect(missed.transition.reason == .reloadAnimated && missed.view.filter == .missed)
        #expect(missed.transition.deletes.map(\.id) == ["c-1002"])
    }

    @Test func theMissedCallsBadge() async throws {
        try await client.postCalls([Self.bob, Self.carol], to: "alice")
        #expect(try await client.list("alice").unseenMissed == 1)
        #expect(try await client.rows(of: "alice").unseenMissed == 1)
        #expect(try await client.transition(of: "alice").unseenMissed == 1)
        let seen = try await client.markSeen(through: 1_764_460_800, in: "alice")
        #expect(seen.version == 2 && seen.seenThrough == 1_764_460_800 && seen.unseenMissed == 0)
        let summary = try await client.list("alice")
        #expect(summary.seenThrough == 1_764_460_800 && summary.unseenMissed == 0)
        #expect(try await client.markSeen(through: 5, in: "alice").seenThrough == 1_764_460_800)
    }

    @Test func stateEndpoints() async throws {
        try await client.postCalls([Self.bob, Self.carol], to: "alice")
        let reveal = try await client.reveal(row: "c-1002", in: "alice", revealed: true)
        #expect(reveal.changed && reveal.revealedRowId == "c-1002")
        let editing = try await client.setEditing(true, in: "alice")
        #expect(editing.editing && editing.revealedRowId == "c-1002")
        #expect(try await client.setEditing(false, in: "alice").revealedRowId == nil)
        let open = try await client.gesture(
            Gesture(initialOffset: 0, offset: -60, velocity: -30), row: "c-1002", in: "alice")
        #expect(open.outcome == .open && open.offset == -74 && open.option == nil)
        let selected = try await client.gesture(
            Gesture(initialOffset: 0, offset: -160, velocity: -20), row: "c-1001", in: "alice")
        #expect(selected.outcome == .selected && selected.option?.key == "delete")
        let deleted = try await client.confirmOption("delete", row: "c-1001", in: "alice")
        #expect(deleted.deletedCallIds == ["c-1001"])
        let cleared = try await client.clear("alice", scope: .everyone)
        #expect(cleared.deletedCallIds == ["c-1002"])
    }

    @Test func errorsCarryTheProblem() async throws {
        try await client.postCalls([Self.carol], to: "alice")
        var changed = Self.carol
        changed.duration = 66
        let conflict = await problem { _ = try await client.postCalls([changed], to: "alice") }
        #expect(conflict?.type == "conflict" && conflict?.status == 409 && conflict?.detail != nil)

        let future = NewCall(peer: .init(id: "bob"), direction: .incoming, timestamp: 9_999_999_999)
        let invalid = await problem { _ = try await client.postCalls([future], to: "alice") }
        #expect(invalid?.status == 422 && invalid?.title == "Request body failed validation")
        #expect(invalid?.errors?.map { $0.field } == ["calls[0].timestamp"])

        let missing = await problem { _ = try await client.call("c-404", in: "alice") }
        #expect(missing?.type == "not-found" && missing?.status == 404)

        let badView = await problem { _ = try await client.rows(of: "alice", view: ViewParameters(limit: 0)) }
        #expect(badView?.type == "bad-request" && badView?.status == 400)

        let gone = await problem { _ = try await client.transition(of: "alice", since: 1, epoch: "wrong") }
        #expect(gone?.isResyncRequired == true && gone?.currentVersion == 1)
    }

    @Test func noServerIsATransientTransportError() async throws {
        server.stop()
        do {
            _ = try await client.list("alice")
            Issue.record("a stopped server answered")
        } catch {
            #expect(error.isTransient)
            if case .transport = error {} else { Issue.record("expected a transport error, got \(error)") }
        }
    }
}
