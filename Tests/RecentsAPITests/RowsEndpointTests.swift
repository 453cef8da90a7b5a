import Foundation
import RecentsClientCore
import RecentsCore
import RecentsTestSupport
import Testing

/// The `GET rows` reply, decoded as the Swift client decodes it (with Core's own `Row`).
typealias RowsReply = RowsPage

@Suite struct RowsEndpointTests {
    /// 2025-11-30 00:00 UTC.
    static let day: Int = 1_764_460_800

    @Test(arguments: Backend.available)
    func rowsGroupAndCarryEveryField(backend: Backend) throws {
        let server = try TestServer(backend)
        let d = Self.day
        let calls = [
            callJSON("c-1", name: "Bob", endReason: "missed", timestamp: d + 100),
            callJSON("c-2", name: "Bob Lee", endReason: "missed", timestamp: d + 200),
            callJSON("c-3", peer: "carol", direction: "outgoing", duration: 42, timestamp: d + 300),
        ]
        try server.request("POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        let response = try server.request("GET", "/v1/lists/alice/rows")
        #expect(response.status == 200)
        let reply = try response.decode(RowsReply.self)
        #expect(reply.version == 1)
        #expect(reply.filter == .all && reply.limit == 50 && reply.tz == 0)
        #expect(reply.rows.map(\.id) == ["c-3", "c-2"])
        #expect(reply.rows[1].callIds == ["c-2", "c-1"])
        #expect(reply.rows[1].peer.name == "Bob Lee")
        #expect(reply.rows[1].status == .missed)
        #expect(reply.rows[1].duration == nil)
        #expect(reply.rows[0].duration == 42)
        #expect(reply.rows[0].status == .outgoing)
        #expect(response.text.contains(#""duration":null"#))
        #expect(response.text.contains(#""options":[{"key":"delete","title":"Delete","destructive":true}]"#))
    }

    @Test(arguments: Backend.available)
    func theWindowAndHasMore(backend: Backend) throws {
        let server = try TestServer(backend)
        let calls = (0..<5).map { callJSON("c-\($0)", peer: "p\($0)", timestamp: Self.day + $0) }
        try server.request("POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        let two = try server.request("GET", "/v1/lists/alice/rows?limit=2").decode(RowsReply.self)
        #expect(two.rows.map(\.id) == ["c-4", "c-3"])
        #expect(two.hasMore)
        let all = try server.request("GET", "/v1/lists/alice/rows?limit=5").decode(RowsReply.self)
        #expect(all.rows.count == 5)
        #expect(!all.hasMore)
    }

    @Test(arguments: Backend.available)
    func missedFilterAndTimeZone(backend: Backend) throws {
        let server = try TestServer(backend)
        let d = Self.day
        let calls = [
            callJSON("c-1", endReason: "missed", timestamp: d - 600),  // 23:50 the day before (UTC)
            callJSON("c-2", endReason: "missed", timestamp: d + 600),  // 00:10
            callJSON("c-3", direction: "outgoing", timestamp: d + 700),
        ]
        try server.request("POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        let utc = try server.request("GET", "/v1/lists/alice/rows?filter=missed").decode(RowsReply.self)
        #expect(utc.rows.map(\.id) == ["c-2", "c-1"])
        let plusOne = try server.request("GET", "/v1/lists/alice/rows?filter=missed&tz=60").decode(RowsReply.self)
        #expect(plusOne.rows.map(\.id) == ["c-2"])
        #expect(plusOne.rows.first?.callIds == ["c-2", "c-1"])
    }

    @Test(arguments: Backend.available)
    func etagAnswers304WhileTheViewIsUnchanged(backend: Backend) throws {
        let server = try TestServer(backend)
        try server.request("POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: Self.day))
        let first = try server.request("GET", "/v1/lists/alice/rows")
        let etag = try #require(first.headers["etag"])
        let same = try server.request("GET", "/v1/lists/alice/rows", headers: [("If-None-Match", etag)])
        #expect(same.status == 304)
        #expect(same.body.isEmpty)
        let otherView = try server.request("GET", "/v1/lists/alice/rows?limit=3", headers: [("If-None-Match", etag)])
        #expect(otherView.status == 200)
        try server.request("POST", "/v1/lists/alice/calls", body: callJSON("c-2", timestamp: Self.day + 1))
        let changed = try server.request("GET", "/v1/lists/alice/rows", headers: [("If-None-Match", etag)])
        #expect(changed.status == 200)
        #expect(changed.headers["etag"] != etag)
    }

    @Test(arguments: Backend.available)
    func aReadAfterAnAcknowledgedWriteSeesIt(backend: Backend) throws {
        let server = try TestServer(backend, socket: true)
        let client = try server.client()
        for n in 1...20 {
            let write = try client.request(
                "POST", "/v1/lists/alice/calls", body: callJSON("c-\(n)", peer: "p\(n % 3)", timestamp: Self.day + n))
            let rows = try client.request("GET", "/v1/lists/alice/rows").decode(RowsReply.self)
            #expect(rows.version == Int64(int(write.json["version"]) ?? -1))
            #expect(rows.rows.first?.id == "c-\(n)")
        }
    }

    /// One rule for both readers of a view: a query parameter out of its range is 400 `bad-request`
    /// (the view's own on `rows` and `rows/{rowId}`; on `transitions` also `since`, `wait`, `includeEmpty` and the old view's `from…`).
    @Test(
        arguments: Backend.available,
        [
            "rows?limit=0", "rows?limit=1001", "rows?limit=abc", "rows?limit=", "rows?tz=841", "rows?tz=-841",
            "rows?tz=1.5", "rows?filter=some", "transitions?since=x", "transitions?since=-1", "transitions?wait=-1",
            "transitions?wait=abc", "transitions?limit=0", "transitions?fromLimit=1001", "transitions?fromTz=900",
            "transitions?fromFilter=x", "transitions?includeEmpty=yes", "transitions?includeEmpty=",
            "rows/c-1?tz=841", "rows/c-1?filter=video", "rows/c-1?limit=0",
        ])
    func badQueryParametersAre400(backend: Backend, target: String) throws {
        let server = try TestServer(backend)
        let response = try server.request("GET", "/v1/lists/alice/\(target)")
        #expect(response.status == 400)
        #expect(response.json["type"] as? String == "bad-request")
    }

    @Test(arguments: Backend.available)
    func headAnswersLikeGetWithoutABody(backend: Backend) throws {
        let server = try TestServer(backend)
        try server.request("POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: Self.day))
        let get = try server.request("GET", "/v1/lists/alice/rows")
        let head = try server.request("HEAD", "/v1/lists/alice/rows")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["content-length"] == "\(get.body.count)")
    }

    @Test(arguments: Backend.available)
    func wrongMethodIs405WithAllow(backend: Backend) throws {
        let server = try TestServer(backend)
        let response = try server.request("PATCH", "/v1/lists/alice/rows")
        #expect(response.status == 405)
        #expect(response.json["type"] as? String == "method-not-allowed")
        #expect(response.headers["allow"]?.contains("GET") == true)
        #expect(try server.request("GET", "/v2/nothing").status == 404)
    }
}
