import Foundation
import HTTPClient
import RecentsTestSupport
import Testing

/// Issue 41: the seen mark (`POST …/seen`) and the missed-calls badge `unseenMissed` it leaves, in
/// every read that shows a list: `GET` the list, rows, transitions, long-polls and event streams.
@Suite struct SeenMarkTests {
    static let day = RowsEndpointTests.day

    /// Alice's list: missed calls at day+10, +20 and +30 (three peers), an answered and an
    /// outgoing unanswered call (neither in the missed class).
    private func seeded(_ backend: Backend, socket: Bool = false) throws -> TestServer {
        let server = try TestServer(backend, socket: socket)
        let d = Self.day
        let calls = [
            callJSON("m-1", peer: "bob", endReason: "missed", timestamp: d + 10),
            callJSON("m-2", peer: "carol", endReason: "missed", timestamp: d + 20),
            callJSON("m-3", peer: "dave", endReason: "missed", timestamp: d + 30),
            callJSON("h-1", peer: "erin", timestamp: d + 40),
            callJSON("o-1", peer: "frank", direction: "outgoing", endReason: "missed", timestamp: d + 50),
        ]
        let posted = try server.request(
            "POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        #expect(posted.status == 201)
        return server
    }

    @discardableResult
    private func seen(_ server: TestServer, _ through: Int, headers: [(String, String)] = []) throws -> TestResponse {
        try server.request("POST", "/v1/lists/alice/seen", body: #"{"through": \#(through)}"#, headers: headers)
    }

    private func list(_ server: TestServer) throws -> [String: Any] {
        try server.request("GET", "/v1/lists/alice").json
    }

    @Test(arguments: Backend.available)
    func theMarkOnlyMovesForwardAndEachMoveIsAVersion(backend: Backend) throws {
        let server = try seeded(backend)
        #expect(int(try list(server)["unseenMissed"]) == 3)
        #expect(int(try list(server)["seenThrough"]) == 0)
        let first = try seen(server, Self.day + 20)
        #expect(first.status == 200)
        #expect(int(first.json["version"]) == 2)
        #expect(first.json["epoch"] as? String == server.epoch)
        #expect(int(first.json["seenThrough"]) == Self.day + 20)
        #expect(int(first.json["unseenMissed"]) == 1)
        // An earlier mark changes nothing: no version, the later mark stays.
        let back = try seen(server, Self.day + 10)
        #expect(int(back.json["version"]) == 2)
        #expect(int(back.json["seenThrough"]) == Self.day + 20)
        #expect(int(back.json["unseenMissed"]) == 1)
        let all = try seen(server, Self.day + 30)
        #expect(int(all.json["version"]) == 3)
        #expect(int(all.json["unseenMissed"]) == 0)
        let info = try list(server)
        #expect(int(info["version"]) == 3 && int(info["seenThrough"]) == Self.day + 30)
        #expect(int(info["unseenMissed"]) == 0)
        // A missed call newer than the mark is unseen; one at or before it was seen already.
        try server.request(
            "POST", "/v1/lists/alice/calls",
            body:
                #"{"calls": [\#(callJSON("m-4", endReason: "missed", timestamp: Self.day + 30)), \#(callJSON("m-5", peer: "gus", endReason: "missed", timestamp: Self.day + 31))]}"#
        )
        #expect(int(try list(server)["unseenMissed"]) == 1)
    }

    @Test(arguments: Backend.available, [#"{}"#, #"{"through": "1"}"#, #"{"through": -1}"#, #"{"through": 1.5}"#])
    func aBadMarkIs422(backend: Backend, body: String) throws {
        let server = try seeded(backend)
        let response = try server.request("POST", "/v1/lists/alice/seen", body: body)
        #expect(response.status == 422)
        #expect(response.json["type"] as? String == "validation-failed")
        #expect(int(try list(server)["version"]) == 1)
    }

    @Test(arguments: Backend.available)
    func aRetryWithItsKeyReplaysTheFirstAnswer(backend: Backend) throws {
        let server = try seeded(backend)
        let key = [("Idempotency-Key", "seen-1")]
        let first = try seen(server, Self.day + 20, headers: key)
        // Another device marks everything seen meanwhile; the retry still gets the first answer.
        try seen(server, Self.day + 30)
        let retry = try seen(server, Self.day + 20, headers: key)
        #expect(retry.status == first.status && retry.body == first.body)
        #expect(int(try list(server)["version"]) == 3)
        #expect(try seen(server, Self.day + 25, headers: key).status == 422)
    }

    /// Two devices mark at once, each its own rising marks: every mark lands, none moves it
    /// back, and the list ends at the later of the two last marks.
    @Test(arguments: Backend.available)
    func twoDevicesMarkingAtOnceLeaveTheLaterMark(backend: Backend) throws {
        let server = try seeded(backend, socket: true)
        let marks = [(0..<20).map { Self.day + $0 }, (0..<20).map { Self.day + 5 + $0 * 2 }]
        let answers = Answers()
        let group = WriterThreads.start(2, port: server.port) { device, client in
            for through in marks[device] {
                let response = try? client.request(
                    "POST", "/v1/lists/alice/seen", body: #"{"through": \#(through)}"#)
                answers.add(through: through, reply: response?.json ?? [:])
            }
        }
        group.wait()
        #expect(answers.count == 40)
        #expect(answers.allAtOrAfter)
        let last = try list(server)
        #expect(int(last["seenThrough"]) == Self.day + 43)
        #expect(int(last["unseenMissed"]) == 0)
    }

    @Test(arguments: Backend.available)
    func deletesAndClearLowerTheCountAndForgetResetsTheMark(backend: Backend) throws {
        let server = try seeded(backend)
        try seen(server, Self.day + 15)
        #expect(int(try list(server)["unseenMissed"]) == 2)
        try server.request("DELETE", "/v1/lists/alice/calls/m-3")
        #expect(int(try list(server)["unseenMissed"]) == 1)
        try server.request("POST", "/v1/lists/alice/rows/m-2/options/delete")
        #expect(int(try list(server)["unseenMissed"]) == 0)
        try server.request(
            "POST", "/v1/lists/alice/calls", body: callJSON("m-6", endReason: "missed", timestamp: Self.day + 60))
        #expect(int(try list(server)["unseenMissed"]) == 1)
        let cleared = try server.request("POST", "/v1/lists/alice/clear")
        #expect(cleared.status == 200)
        let afterClear = try list(server)
        #expect(int(afterClear["unseenMissed"]) == 0)
        #expect(int(afterClear["seenThrough"]) == Self.day + 15)
        try server.request("DELETE", "/v1/lists/alice")
        let forgotten = try list(server)
        #expect(int(forgotten["seenThrough"]) == 0 && int(forgotten["unseenMissed"]) == 0)
    }

    @Test(arguments: Backend.available)
    func rowsOfEitherFilterCarryTheCount(backend: Backend) throws {
        let server = try seeded(backend)
        for filter in ["all", "missed"] {
            let rows = try server.request("GET", "/v1/lists/alice/rows?filter=\(filter)")
            #expect(int(rows.json["unseenMissed"]) == 3)
        }
        try seen(server, Self.day + 10)
        // The cached view of version 1 is not served for version 2.
        #expect(int(try server.request("GET", "/v1/lists/alice/rows").json["unseenMissed"]) == 2)
    }

    /// A mark moves no row, but a client at the version before it is told the new count.
    @Test(arguments: Backend.available)
    func aTransitionCarriesTheCountAtItsEndEvenWhenNoRowMoves(backend: Backend) throws {
        let server = try seeded(backend)
        let initial = try server.request("GET", "/v1/lists/alice/transitions").decode(TransitionReply.self)
        #expect(initial.unseenMissed == 3)
        try seen(server, Self.day + 30)
        let reply = try server.request("GET", "/v1/lists/alice/transitions?since=1&wait=30")
            .decode(TransitionReply.self)
        #expect(reply.from == 1 && reply.to == 2)
        #expect(reply.unseenMissed == 0)
        #expect(reply.deletes.isEmpty && reply.inserts.isEmpty && reply.updates.isEmpty)
        // The missed view is as it was at version 1: the count alone makes the answer.
        let missed = try server.request(
            "GET", "/v1/lists/alice/transitions?since=1&filter=missed&wait=30"
        ).decode(TransitionReply.self)
        #expect(missed.to == 2 && missed.unseenMissed == 0)
    }

    /// An event stream gets an event for a mark, though no row of its view moved: the next
    /// event after the mark is the mark's, not the marker's that follows it.
    @Test(arguments: Backend.available)
    func anEventStreamGetsAnEventForAMark(backend: Backend) throws {
        let server = try seeded(backend, socket: true)
        let stream = try EventStreamClient(server, "/v1/lists/alice/events?filter=missed")
        let first = try stream.nextTransition()
        #expect(first.to == 1 && first.unseenMissed == 3)
        let mark = int(try seen(server, Self.day + 20).json["version"]) ?? -1
        try server.request(
            "POST", "/v1/lists/alice/calls",
            body: callJSON("m-7", peer: "hal", endReason: "missed", timestamp: Self.day + 90))
        let event = try stream.nextTransition()
        #expect(event.to == Int64(mark))
        #expect(event.unseenMissed == 1)
        #expect(event.isEmpty)
        let marker = try stream.nextTransition()
        #expect(marker.unseenMissed == 2)
        #expect(marker.inserts.map(\.id) == ["m-7"])
    }
}

/// What the devices of the concurrent test were answered, gathered from both threads.
private final class Answers: @unchecked Sendable {
    // Safe: every member is read and written under `lock` only.
    private let lock = NSLock()
    private var replies: [(through: Int, seenThrough: Int?)] = []

    func add(through: Int, reply: [String: Any]) {
        lock.withLock { replies.append((through, int(reply["seenThrough"]))) }
    }

    var count: Int { lock.withLock { replies.count } }

    /// Whether each answer's mark is at or after the mark its request sent (a mark never goes back).
    var allAtOrAfter: Bool {
        lock.withLock { replies.allSatisfy { reply in (reply.seenThrough ?? -1) >= reply.through } }
    }
}
