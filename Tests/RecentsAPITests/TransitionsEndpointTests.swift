import Foundation
import HTTPClient
import RecentsCore
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// The transitions reply: Core's `Transition`, the type a Swift client decodes it as (its reason,
/// options and direction hints as Core's enums), and the members around it; the transition's own
/// members read through, as `reply.inserts`.
@dynamicMemberLookup
struct TransitionReply: Decodable {
    var list: String
    var from: Int64?
    var to: Int64
    var epoch: String
    /// The missed-calls badge at `to`.
    var unseenMissed: Int
    var transition: Transition

    enum CodingKeys: String, CodingKey { case list, from, to, epoch, unseenMissed }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        list = try container.decode(String.self, forKey: .list)
        from = try container.decodeIfPresent(Int64.self, forKey: .from)
        to = try container.decode(Int64.self, forKey: .to)
        epoch = try container.decode(String.self, forKey: .epoch)
        unseenMissed = try container.decode(Int.self, forKey: .unseenMissed)
        transition = try Transition(from: decoder)
    }

    subscript<Member>(dynamicMember member: KeyPath<Transition, Member>) -> Member { transition[keyPath: member] }

    /// What a client does: deletes descending, inserts ascending, then updates replace.
    func apply(to old: [Row]) -> [Row] {
        var rows = old
        for delete in self.deletes.sorted(by: { $0.index > $1.index }) { rows.remove(at: delete.index) }
        for insert in self.inserts.sorted(by: { $0.index < $1.index }) { rows.insert(insert.row, at: insert.index) }
        for update in self.updates { rows[update.index] = update.row }
        return rows
    }
}

@Suite struct TransitionsEndpointTests {
    static let day = RowsEndpointTests.day

    func post(_ server: TestServer, _ call: String) throws -> Int {
        int(try server.request("POST", "/v1/lists/alice/calls", body: call).json["version"]) ?? -1
    }

    func transition(_ server: TestServer, _ query: String) throws -> TransitionReply {
        let response = try server.request("GET", "/v1/lists/alice/transitions?\(query)")
        #expect(response.status == 200, "\(response.text)")
        return try response.decode(TransitionReply.self)
    }

    @Test(arguments: Backend.available)
    func initialTransitionInsertsTheWholeView(backend: Backend) throws {
        let server = try TestServer(backend)
        _ = try post(server, callJSON("c-1", timestamp: Self.day))
        _ = try post(server, callJSON("c-2", peer: "carol", timestamp: Self.day + 1))
        let reply = try transition(server, "")
        #expect(reply.reason == .initial)
        #expect(reply.options == [.lowLatency, .synchronous, .preferSynchronousResourceLoading])
        #expect(reply.from == nil && reply.to == 2)
        #expect(reply.inserts.map(\.index) == [0, 1])
        #expect(reply.inserts.allSatisfy { $0.directionHint == nil && $0.previousIndex == nil })
        #expect(reply.count == 2 && !reply.hasMore)
        let rows = try server.request("GET", "/v1/lists/alice/rows").decode(RowsReply.self)
        #expect(reply.apply(to: []) == rows.rows)
    }

    @Test(arguments: Backend.available)
    func interactiveChangesFromAnEarlierVersion(backend: Backend) throws {
        let server = try TestServer(backend)
        _ = try post(server, callJSON("c-1", timestamp: Self.day))
        _ = try post(server, callJSON("c-2", peer: "carol", timestamp: Self.day + 10))
        let old = try server.request("GET", "/v1/lists/alice/rows").decode(RowsReply.self)
        _ = try post(server, callJSON("c-3", peer: "carol", timestamp: Self.day + 20))  // replaces row c-2
        _ = try post(server, callJSON("c-4", peer: "dave", timestamp: Self.day + 30))
        try server.request("PUT", "/v1/lists/alice/rows/c-1/reveal", body: #"{"revealed": true}"#)
        let reply = try transition(server, "since=\(old.version)")
        #expect(reply.reason == .interactiveChanges)
        #expect(reply.options == [.animateAlpha, .animateInsertion])
        #expect(reply.from == Int64(old.version) && reply.to == 5)
        #expect(reply.deletes.map(\.id) == ["c-2"])
        #expect(reply.inserts.map(\.id) == ["c-4", "c-3"])
        #expect(reply.inserts.map(\.directionHint) == [.down, .down])
        #expect(reply.updates.map(\.id) == ["c-1"])
        #expect(reply.revealedRowId == "c-1")
        let now = try server.request("GET", "/v1/lists/alice/rows").decode(RowsReply.self)
        #expect(reply.apply(to: old.rows) == now.rows)
    }

    @Test(arguments: Backend.available)
    func reasonsFollowTheViewParameters(backend: Backend) throws {
        let server = try TestServer(backend)
        _ = try post(server, callJSON("c-1", endReason: "missed", timestamp: Self.day))
        let filter = try transition(server, "since=1&filter=missed&fromFilter=all")
        #expect(filter.reason == .reloadAnimated)
        #expect(
            filter.options == [.lowLatency, .synchronous, .animateCrossfade, .preferSynchronousResourceLoading])
        let limit = try transition(server, "since=1&limit=10&fromLimit=20")
        #expect(limit.reason == .reload)
        #expect(limit.options.isEmpty)
        let tz = try transition(server, "since=1&tz=60&fromTz=0")
        #expect(tz.reason == .reload)
        let emptyOld = try transition(server, "since=0")
        #expect(emptyOld.reason == .interactiveChanges)
        #expect(emptyOld.options == [.synchronous, .preferSynchronousResourceLoading])
        #expect(emptyOld.inserts.allSatisfy { $0.directionHint == nil })
    }

    @Test(arguments: Backend.available)
    func nothingToDoStillMovesToToTheCurrentVersion(backend: Backend) throws {
        let server = try TestServer(backend)
        _ = try post(server, callJSON("c-1", timestamp: Self.day))
        _ = try post(server, callJSON("c-2", direction: "outgoing", timestamp: Self.day + 1))
        // The missed view did not change between 1 and 2.
        let reply = try transition(server, "since=1&filter=missed")
        #expect(reply.isEmpty)
        #expect(reply.to == 2 && reply.from == 1)
    }

    @Test(arguments: Backend.available)
    func sinceOutsideWhatIsRetainedIs410(backend: Backend) throws {
        let server = try TestServer(backend) { $0.store.retainVersions = 3 }
        for n in 1...6 { _ = try post(server, callJSON("c-\(n)", timestamp: Self.day + n)) }
        let newer = try server.request("GET", "/v1/lists/alice/transitions?since=7")
        #expect(newer.status == 410)
        #expect(newer.json["type"] as? String == "resync-required")
        #expect(int(newer.json["currentVersion"]) == 6)
        #expect(try server.request("GET", "/v1/lists/alice/transitions?since=2").status == 410)
        #expect(try server.request("GET", "/v1/lists/alice/transitions?since=3").status == 200)
        let epoch = try server.request("GET", "/v1/lists/alice/transitions?since=5&epoch=someoneelse")
        #expect(epoch.status == 410)
        #expect(int(epoch.json["currentVersion"]) == 6)
        let listEpoch = try server.request("GET", "/v1/lists/alice").json["epoch"] as? String ?? ""
        #expect(try server.request("GET", "/v1/lists/alice/transitions?since=5&epoch=\(listEpoch)").status == 200)
    }

    // Bad transition parameters (400): RowsEndpointTests.badQueryParametersAre400, with the rows'.

    @Test(arguments: Backend.available)
    func aParkedLongPollIsWokenByAWrite(backend: Backend) throws {
        let server = try TestServer(backend)
        _ = try post(server, callJSON("c-1", timestamp: Self.day))
        let waiter = try server.begin("GET", "/v1/lists/alice/transitions?since=1&wait=20")
        #expect(try server.waitForParked(1))
        _ = try post(server, callJSON("c-2", peer: "carol", timestamp: Self.day + 1))
        let reply = try server.finish(waiter).decode(TransitionReply.self)
        #expect(reply.to == 2)
        #expect(reply.inserts.map(\.id) == ["c-2"])
        #expect(try server.waitForParked(0))
    }

    @Test(arguments: Backend.available)
    func aWriteThatLeavesTheViewUnchangedKeepsTheWaiterParked(backend: Backend) throws {
        let server = try TestServer(backend)
        _ = try post(server, callJSON("c-1", endReason: "missed", timestamp: Self.day))
        let waiter = try server.begin("GET", "/v1/lists/alice/transitions?since=1&filter=missed&wait=20")
        #expect(try server.waitForParked(1))
        _ = try post(server, callJSON("c-2", direction: "outgoing", timestamp: Self.day + 1))
        _ = try post(server, callJSON("c-3", peer: "carol", endReason: "missed", timestamp: Self.day + 2))
        let reply = try server.finish(waiter).decode(TransitionReply.self)
        #expect(reply.to == 3)
        #expect(reply.inserts.map(\.id) == ["c-3"])
    }

    /// `includeEmpty=true`: any new version answers a held request, also one that leaves the view
    /// as it was (empty, to the new version); a request behind the list is answered at once.
    @Test(arguments: Backend.available)
    func includeEmptyAnswersEveryNewVersion(backend: Backend) throws {
        // A clock that never reaches the 30 s wait: a request held when it should not be stays
        // unanswered, and `finish` fails.
        let server = try TestServer(backend) { $0.clock = .manual(ManualClock()) }
        _ = try post(server, callJSON("c-1", endReason: "missed", timestamp: Self.day))
        let target = "/v1/lists/alice/transitions?since=1&filter=missed&includeEmpty=true&wait=30"
        let waiter = try server.begin("GET", target)
        #expect(try server.waitForParked(1))
        let hidden = Int64(try post(server, callJSON("c-2", direction: "outgoing", timestamp: Self.day + 1)))
        let woken = try server.finish(waiter).decode(TransitionReply.self)
        #expect(woken.from == 1 && woken.to == hidden && woken.isEmpty)
        let behind = try server.finish(server.begin("GET", target)).decode(TransitionReply.self)
        #expect(behind.from == 1 && behind.to == hidden && behind.isEmpty)
    }

    @Test(arguments: Backend.available)
    func theWaitRunsOutWithNothingToDo(backend: Backend) throws {
        let clock = ManualClock()
        let server = try TestServer(backend) { $0.clock = .manual(clock) }
        _ = try post(server, callJSON("c-1", timestamp: Self.day))
        let exchange = try server.begin("GET", "/v1/lists/alice/transitions?since=1&wait=1")
        #expect(try server.waitForParked(1))
        clock.advance(by: .milliseconds(999))
        #expect(!exchange.isComplete)
        clock.advance(by: .milliseconds(1))
        let reply = try server.finish(exchange).decode(TransitionReply.self)
        #expect(reply.isEmpty && reply.to == 1)
    }

    @Test(arguments: Backend.available)
    func aClientThatLeavesIsReleased(backend: Backend) throws {
        let server = try TestServer(backend)
        let waiter = try server.begin("GET", "/v1/lists/alice/transitions?since=0&wait=30")
        #expect(try server.waitForParked(1))
        waiter.cancel()
        #expect(try server.waitForParked(0))
    }

    @Test(arguments: Backend.available)
    func manyWaitersOnOneListShareOneAnswer(backend: Backend) throws {
        // More than one list parks by default (32): the sharing is what is tested here.
        let server = try TestServer(backend) { $0.memory.longPollsPerList = 50 }
        _ = try post(server, callJSON("c-1", timestamp: Self.day))
        let waiters = try (0..<50).map { _ in try server.begin("GET", "/v1/lists/alice/transitions?since=1&wait=20") }
        #expect(try server.waitForParked(50))
        _ = try post(server, callJSON("c-2", peer: "carol", timestamp: Self.day + 1))
        let bodies = try Set(waiters.map { try server.finish($0).text })
        #expect(bodies.count == 1)
    }
}
