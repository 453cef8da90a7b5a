import Foundation
import RecentsTestSupport
import Testing

@Suite struct StateEndpointTests {
    static let day = RowsEndpointTests.day

    /// A server with two single-call rows, c-2 (carol, newest) and c-1 (bob).
    func seeded(_ backend: Backend) throws -> TestServer {
        let server = try TestServer(backend)
        let calls = [callJSON("c-1", timestamp: Self.day + 1), callJSON("c-2", peer: "carol", timestamp: Self.day + 2)]
        try server.request("POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        return server
    }

    func reveal(_ server: TestServer, _ row: String, _ revealed: Bool) throws -> TestResponse {
        try server.request("PUT", "/v1/lists/alice/rows/\(row)/reveal", body: #"{"revealed": \#(revealed)}"#)
    }

    @Test(arguments: Backend.available)
    func openingWinsAndClosingAppliesOnlyToTheOpenRow(backend: Backend) throws {
        let server = try seeded(backend)
        let open1 = try reveal(server, "c-1", true)
        #expect(open1.json["revealedRowId"] as? String == "c-1")
        #expect(open1.json["changed"] as? Bool == true)
        #expect(int(open1.json["version"]) == 2)
        let open2 = try reveal(server, "c-2", true)
        #expect(open2.json["revealedRowId"] as? String == "c-2")
        #expect(int(open2.json["version"]) == 3)
        let closeOther = try reveal(server, "c-1", false)
        #expect(closeOther.status == 200)
        #expect(closeOther.json["changed"] as? Bool == false)
        #expect(int(closeOther.json["version"]) == 3)
        #expect(closeOther.json["revealedRowId"] as? String == "c-2")
        let reopen = try reveal(server, "c-2", true)
        #expect(reopen.json["changed"] as? Bool == false)
        #expect(int(reopen.json["version"]) == 3)
        let close = try reveal(server, "c-2", false)
        #expect(close.json["revealedRowId"] is NSNull)
        #expect(int(close.json["version"]) == 4)
        let rows = try server.request("GET", "/v1/lists/alice/rows").decode(RowsReply.self)
        #expect(rows.rows.allSatisfy { !$0.revealed })
        #expect(try reveal(server, "c-9", true).status == 404)
    }

    @Test(arguments: Backend.available)
    func revealedFlagShowsOnTheRow(backend: Backend) throws {
        let server = try seeded(backend)
        _ = try reveal(server, "c-1", true)
        let rows = try server.request("GET", "/v1/lists/alice/rows").decode(RowsReply.self)
        #expect(rows.revealedRowId == "c-1")
        #expect(rows.rows.map(\.revealed) == [false, true])
    }

    @Test(arguments: Backend.available)
    func doneClearsTheOpenRowInTheSameVersion(backend: Backend) throws {
        let server = try seeded(backend)
        let edit = try server.request("PUT", "/v1/lists/alice/editing", body: #"{"editing": true}"#)
        #expect(edit.json["editing"] as? Bool == true)
        #expect(int(edit.json["version"]) == 2)
        _ = try reveal(server, "c-1", true)
        let done = try server.request("PUT", "/v1/lists/alice/editing", body: #"{"editing": false}"#)
        #expect(done.json["editing"] as? Bool == false)
        #expect(done.json["revealedRowId"] is NSNull)
        #expect(int(done.json["version"]) == 4)
        let again = try server.request("PUT", "/v1/lists/alice/editing", body: #"{"editing": false}"#)
        #expect(int(again.json["version"]) == 4)
        let rows = try server.request("GET", "/v1/lists/alice/rows").decode(RowsReply.self)
        #expect(rows.rows.allSatisfy { !$0.editing && !$0.revealed })
    }

    @Test(
        arguments: Backend.available,
        [
            (#"{"initialOffset": 0, "offset": -10, "velocity": -30}"#, "open", -74.0),
            (#"{"initialOffset": -74, "offset": -60, "velocity": 20}"#, "closed", 0.0),
            (#"{"initialOffset": -74, "offset": -80, "velocity": 0}"#, "open", -74.0),
            (#"{"initialOffset": 0, "offset": -20, "velocity": 150}"#, "closed", 0.0),
            (#"{"initialOffset": 0, "offset": -149, "velocity": -500}"#, "selected", 0.0),
            (#"{"initialOffset": 0, "offset": -148, "velocity": -500}"#, "open", -74.0),
            (#"{"initialOffset": 0, "offset": -210, "velocity": -500, "buttonWidth": 100}"#, "selected", 0.0),
        ])
    func gestureReleaseIsDecidedOnTheServer(backend: Backend, example: (String, String, Double)) throws {
        let (body, outcome, offset) = example
        let server = try seeded(backend)
        let response = try server.request("POST", "/v1/lists/alice/rows/c-1/gesture", body: body)
        #expect(response.status == 200)
        #expect(response.json["outcome"] as? String == outcome)
        #expect((response.json["offset"] as? NSNumber)?.doubleValue == offset)
        let list = try server.request("GET", "/v1/lists/alice")
        if outcome == "open" {
            #expect(list.json["revealedRowId"] as? String == "c-1")
        } else {
            #expect(list.json["revealedRowId"] is NSNull)
        }
        if outcome == "selected" {
            let option = response.json["option"] as? [String: Any]
            #expect(option?["key"] as? String == "delete")
            #expect(int(list.json["callCount"]) == 2, "selecting deletes nothing until confirmed")
        } else {
            #expect(response.json["option"] is NSNull)
        }
    }

    @Test(arguments: Backend.available)
    func gestureRejectsBadNumbers(backend: Backend) throws {
        let server = try seeded(backend)
        let response = try server.request(
            "POST", "/v1/lists/alice/rows/c-1/gesture",
            body: #"{"initialOffset": 0, "offset": "x", "velocity": 0, "buttonWidth": -1}"#)
        #expect(response.status == 422)
        #expect(
            try server.request(
                "POST", "/v1/lists/alice/rows/nope/gesture", body: #"{"initialOffset": 0, "offset": 0, "velocity": 0}"#
            ).status == 404)
    }

    @Test(arguments: Backend.available)
    func deleteOptionRemovesTheWholeRowAndClosesIt(backend: Backend) throws {
        let server = try TestServer(backend)
        let calls = [
            callJSON("c-1", timestamp: Self.day + 1), callJSON("c-2", timestamp: Self.day + 2),
            callJSON("c-3", peer: "carol", timestamp: Self.day + 3),
        ]
        try server.request("POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        _ = try reveal(server, "c-2", true)
        let deleted = try server.request("POST", "/v1/lists/alice/rows/c-2/options/delete")
        #expect(deleted.status == 200)
        #expect(deleted.json["deletedCallIds"] as? [String] == ["c-2", "c-1"])
        #expect(int(deleted.json["version"]) == 3)
        let list = try server.request("GET", "/v1/lists/alice")
        #expect(list.json["revealedRowId"] is NSNull)
        #expect(int(list.json["callCount"]) == 1)
        #expect(try server.request("POST", "/v1/lists/alice/rows/c-2/options/delete").status == 404)
        #expect(try server.request("POST", "/v1/lists/alice/rows/c-3/options/archive").status == 404)
    }

    @Test(arguments: Backend.available)
    func rowMembershipFollowsTheViewParameters(backend: Backend) throws {
        let server = try TestServer(backend)
        let calls = [
            callJSON("c-1", endReason: "missed", timestamp: Self.day + 1),
            callJSON("c-2", direction: "outgoing", timestamp: Self.day + 2),
            callJSON("c-3", endReason: "missed", timestamp: Self.day + 3),
        ]
        try server.request("POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        // In the missed view, c-3 and c-1 form one row; in the full view c-3 stands alone.
        let deleted = try server.request("POST", "/v1/lists/alice/rows/c-3/options/delete?filter=missed")
        #expect(deleted.json["deletedCallIds"] as? [String] == ["c-3", "c-1"])
    }

    @Test(arguments: Backend.available)
    func deleteForEveryoneReachesThePeersList(backend: Backend) throws {
        let server = try TestServer(backend)
        try server.request("POST", "/v1/lists/alice/calls", body: callJSON("c-1", peer: "bob", timestamp: Self.day))
        try server.request(
            "POST", "/v1/lists/bob/calls",
            body: callJSON("c-1", peer: "alice", direction: "outgoing", timestamp: Self.day))
        try server.request("POST", "/v1/lists/bob/calls", body: callJSON("c-9", peer: "alice", timestamp: Self.day + 5))
        let deleted = try server.request(
            "POST", "/v1/lists/alice/rows/c-1/options/delete", body: #"{"scope": "everyone"}"#)
        #expect(deleted.status == 200)
        #expect(deleted.json["deletedCallIds"] as? [String] == ["c-1"])
        #expect(try server.request("GET", "/v1/lists/bob/calls/c-1").status == 404)
        #expect(try server.request("GET", "/v1/lists/bob/calls/c-9").status == 200)
        #expect(int(try server.request("GET", "/v1/lists/bob").json["version"]) == 3)
        let meOnly = try TestServer(backend)
        try meOnly.request("POST", "/v1/lists/alice/calls", body: callJSON("c-1", peer: "bob", timestamp: Self.day))
        try meOnly.request("POST", "/v1/lists/bob/calls", body: callJSON("c-1", peer: "alice", timestamp: Self.day))
        try meOnly.request("POST", "/v1/lists/alice/rows/c-1/options/delete", body: #"{"scope": "me"}"#)
        #expect(try meOnly.request("GET", "/v1/lists/bob/calls/c-1").status == 200)
    }

    @Test(arguments: Backend.available)
    func clearDeletesAllKeepsEditingAndClosesTheRow(backend: Backend) throws {
        let server = try seeded(backend)
        try server.request("PUT", "/v1/lists/alice/editing", body: #"{"editing": true}"#)
        _ = try reveal(server, "c-1", true)
        let cleared = try server.request("POST", "/v1/lists/alice/clear", body: #"{"scope": "me"}"#)
        #expect(cleared.status == 200)
        #expect(Set(cleared.json["deletedCallIds"] as? [String] ?? []) == ["c-1", "c-2"])
        #expect(int(cleared.json["version"]) == 4)
        let list = try server.request("GET", "/v1/lists/alice")
        #expect(list.json["editing"] as? Bool == true)
        #expect(list.json["revealedRowId"] is NSNull)
        #expect(int(list.json["callCount"]) == 0)
        let again = try server.request("POST", "/v1/lists/alice/clear")
        #expect(int(again.json["version"]) == 4)
        #expect((again.json["deletedCallIds"] as? [String])?.isEmpty == true)
    }

    @Test(arguments: Backend.available)
    func clearForEveryoneReachesEachPeersList(backend: Backend) throws {
        let server = try TestServer(backend)
        let calls = [
            callJSON("c-1", peer: "bob", timestamp: Self.day), callJSON("c-2", peer: "carol", timestamp: Self.day + 1),
        ]
        try server.request("POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        try server.request("POST", "/v1/lists/bob/calls", body: callJSON("c-1", peer: "alice", timestamp: Self.day))
        try server.request(
            "POST", "/v1/lists/carol/calls", body: callJSON("c-2", peer: "alice", timestamp: Self.day + 1))
        try server.request("POST", "/v1/lists/alice/clear", body: #"{"scope": "everyone"}"#)
        #expect(int(try server.request("GET", "/v1/lists/bob").json["callCount"]) == 0)
        #expect(int(try server.request("GET", "/v1/lists/carol").json["callCount"]) == 0)
    }

    @Test(arguments: Backend.available)
    func deletingTheRevealedCallClearsRevealedRowId(backend: Backend) throws {
        let server = try seeded(backend)
        _ = try reveal(server, "c-1", true)
        let deleted = try server.request("DELETE", "/v1/lists/alice/calls/c-1")
        #expect(int(deleted.json["version"]) == 3)
        #expect(try server.request("GET", "/v1/lists/alice").json["revealedRowId"] is NSNull)
    }
}
