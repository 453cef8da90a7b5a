import Foundation
import RecentsStore
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// "Delete all" reads its reply's ids before the write, outside the writer (issue 42): the write
/// uses them only while the list is still at the version they were read at.
@Suite struct ClearListTests {
    static let day = RowsEndpointTests.day

    @Test(arguments: Backend.available)
    func idsReadBeforeTheWriteAnswerOnlyWhileTheListIsUnchanged(backend: Backend) async throws {
        let server = try TestServer(backend)
        let calls = [callJSON("c-1", timestamp: Self.day + 1), callJSON("c-2", peer: "carol", timestamp: Self.day + 2)]
        try server.request("POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        let store = server.store
        let read = try await store.read { reader in
            try ClearList.prefetch("alice", ClearBody(scope: .me), reader: reader)
        }
        #expect(read.known?.version == 1)
        #expect(read.known?.ids == ["c-2", "c-1"])

        // The list moved on after the read: the write reads the ids again, c-3 among them.
        try server.request("POST", "/v1/lists/alice/calls", body: callJSON("c-3", timestamp: Self.day))
        let stale = try await store.write { tx in try ClearList.run("alice", read, tx: tx).value }
        #expect(stale.value == ["c-2", "c-1", "c-3"])

        // Unchanged since the read: its ids are the reply, the same a read inside the write gives.
        try server.request("POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        let fresh = try await store.read { reader in
            try ClearList.prefetch("alice", ClearBody(scope: .me), reader: reader)
        }
        let cleared = try await store.write { tx in try ClearList.run("alice", fresh, tx: tx).value }
        #expect(cleared.value == ["c-2", "c-1"])
        #expect(cleared.versions == ["alice": 5])
        let reply = try server.request("POST", "/v1/lists/alice/clear")
        #expect((reply.json["deletedCallIds"] as? [String])?.isEmpty == true)
    }

    @Test(arguments: Backend.available)
    func theReplyListsEveryCallNewestFirstAndAReplayRepeatsItsBytes(backend: Backend) throws {
        let server = try TestServer(backend)
        let calls = (0..<40).map { callJSON("c-\($0)", timestamp: Self.day + ($0 * 7) % 40) }
        try server.request("POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        // Timestamps day + (7 i mod 40) are distinct: newest first is their descending order.
        let ids = (0..<40).sorted { ($0 * 7) % 40 > ($1 * 7) % 40 }.map { "c-\($0)" }
        let headers = [("Idempotency-Key", "clear-1")]
        let cleared = try server.request("POST", "/v1/lists/alice/clear", headers: headers)
        #expect(cleared.json["deletedCallIds"] as? [String] == ids)
        // Exactly these bytes, however the ids are read and written into the body.
        let epoch = try #require(cleared.json["epoch"] as? String)
        let quoted = ids.map { "\"\($0)\"" }.joined(separator: ",")
        #expect(
            String(decoding: cleared.body, as: UTF8.self)
                == #"{"version":2,"epoch":"\#(epoch)","deletedCallIds":[\#(quoted)]}"#)
        let replay = try server.request("POST", "/v1/lists/alice/clear", headers: headers)
        #expect(replay.body == cleared.body)
        #expect(replay.header("Idempotent-Replayed") == "true")
    }

    @Test(arguments: Backend.available)
    func preferMinimalAnswersWithoutTheIdsAndSaysSo(backend: Backend) throws {
        let server = try TestServer(backend)
        let calls = (0..<5).map { callJSON("c-\($0)", timestamp: Self.day + $0) }
        try server.request("POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        let minimal = [("Prefer", #"respond-async, RETURN="minimal"; x=1"#), ("Idempotency-Key", "clear-min")]
        let cleared = try server.request("POST", "/v1/lists/alice/clear", headers: minimal)
        #expect(cleared.status == 200)
        let epoch = try #require(cleared.json["epoch"] as? String)
        // Exactly these bytes: a lenient parser would also take a trailing comma.
        #expect(String(decoding: cleared.body, as: UTF8.self) == #"{"version":2,"epoch":"\#(epoch)"}"#)
        #expect(cleared.header("Preference-Applied") == "return=minimal")
        // Cleared all the same: nothing is live at the answered version.
        let list = try server.request("GET", "/v1/lists/alice")
        #expect(list.json["callCount"] as? Int == 0)
        #expect((try server.request("GET", "/v1/lists/alice/rows").json["rows"] as? [Any])?.isEmpty == true)
        // A keyed retry repeats the bytes and the header.
        let replay = try server.request("POST", "/v1/lists/alice/clear", headers: minimal)
        #expect(replay.body == cleared.body)
        #expect(replay.header("Preference-Applied") == "return=minimal")
        #expect(replay.header("Idempotent-Replayed") == "true")

        // Any other preference keeps the contract's reply: every id, no Preference-Applied.
        try server.request("POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        let full = try server.request("POST", "/v1/lists/alice/clear", headers: [("Prefer", "return=representation")])
        #expect(full.json["deletedCallIds"] as? [String] == (0..<5).reversed().map { "c-\($0)" })
        #expect(full.header("Preference-Applied") == nil)
    }
}
