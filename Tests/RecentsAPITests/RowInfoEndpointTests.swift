import Foundation
import RecentsCompression
import RecentsCore
import RecentsJSON
import RecentsTestSupport
import Testing

/// Issue 41: `GET …/rows/{rowId}`, a row of a view and its calls with Telegram's kinds.
@Suite struct RowInfoEndpointTests {
    /// 2025-11-30 00:00 UTC.
    static let day: Int = 1_764_460_800

    /// Bob's group of the day: every direction and end reason among its calls (grouping keys are
    /// peer, day, missed class and video, so only non-missed voice calls group here), and other rows.
    private func seeded(_ backend: Backend, auth: Bool = false) throws -> TestServer {
        let server = try auth ? TestServer.withAuth(backend) : TestServer(backend)
        let d = Self.day
        let calls = [
            callJSON("m-1", endReason: "missed", timestamp: d + 10),
            callJSON("m-2", endReason: "missed", timestamp: d + 90),
            callJSON("b-1", direction: "incoming", endReason: "hangup", duration: 30, timestamp: d + 100),
            callJSON("b-2", direction: "outgoing", endReason: "busy", timestamp: d + 200),
            callJSON("b-3", direction: "outgoing", endReason: "missed", timestamp: d + 300),
            callJSON("b-4", direction: "incoming", endReason: "busy", timestamp: d + 400),
            callJSON("b-5", direction: "incoming", endReason: "disconnect", duration: 3, timestamp: d + 500),
            callJSON("b-6", direction: "outgoing", endReason: "hangup", duration: 61, timestamp: d + 600),
            callJSON("v-1", direction: "outgoing", endReason: "disconnect", video: true, timestamp: d + 700),
        ]
        let posted = try server.request(
            "POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#,
            headers: auth ? bearer(liveToken("alice")) : [])
        #expect(posted.status == 201)
        return server
    }

    @Test(arguments: Backend.available)
    func theRowAndItsCallsNewestFirstWithTheirKinds(backend: Backend) throws {
        let server = try seeded(backend)
        let response = try server.request("GET", "/v1/lists/alice/rows/b-6")
        #expect(response.status == 200)
        #expect(response.json["list"] as? String == "alice")
        #expect(int(response.json["version"]) == 1)
        #expect(response.json["epoch"] as? String == server.epoch)
        let calls = try #require(response.json["calls"] as? [[String: Any]])
        #expect(calls.map { $0["id"] as? String } == ["b-6", "b-5", "b-4", "b-3", "b-2", "b-1"])
        #expect(
            calls.map { $0["kind"] as? String } == [
                "outgoing", "cancelled", "missed", "cancelled", "cancelled", "incoming",
            ])
        #expect(calls.map { int($0["duration"]) } == [61, 3, 0, 0, 0, 30])
        #expect(calls.allSatisfy { $0["video"] as? Bool == false })
        #expect(
            calls.first.map { Set($0.keys) } == [
                "id", "timestamp", "direction", "endReason", "duration", "video", "kind",
            ])
        let row = try #require(response.json["row"] as? [String: Any])
        #expect(row["callIds"] as? [String] == ["b-6", "b-5", "b-4", "b-3", "b-2", "b-1"])
        #expect(row["status"] as? String == "mixed")
        // The row is the one `GET rows` shows.
        let rows = try server.request("GET", "/v1/lists/alice/rows").decode(RowsReply.self)
        #expect(try response.decode(RowOfInfo.self).row == rows.rows.first { $0.id == "b-6" })
        #expect(try SchemaConformance().problems(try JSONParser.parse(response.body), schema: "RowInfo") == [])
    }

    @Test(arguments: Backend.available)
    func aVideoCallKeepsItsKindAndSaysVideo(backend: Backend) throws {
        let server = try seeded(backend)
        let calls = try #require(
            try server.request("GET", "/v1/lists/alice/rows/v-1").json["calls"] as? [[String: Any]])
        #expect(calls.count == 1)
        #expect(calls.first?["kind"] as? String == "cancelled")
        #expect(calls.first?["video"] as? Bool == true)
    }

    /// A row is a group of one view: the missed filter groups other rows, and a time zone other days.
    @Test(arguments: Backend.available)
    func theViewGroupsTheRow(backend: Backend) throws {
        let server = try seeded(backend)
        let missed = try server.request("GET", "/v1/lists/alice/rows/m-2?filter=missed")
        #expect((missed.json["calls"] as? [[String: Any]])?.map { $0["id"] as? String } == ["m-2", "m-1"])
        #expect((missed.json["calls"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["missed", "missed"])
        // At UTC-00:01 the first missed call falls on the day before: a row of its own.
        #expect(try server.request("GET", "/v1/lists/alice/rows/m-1").status == 404)
        let west = try server.request("GET", "/v1/lists/alice/rows/m-2?tz=-1")
        #expect((west.json["calls"] as? [[String: Any]])?.map { $0["id"] as? String } == ["m-2"])
        let dayBefore = try server.request("GET", "/v1/lists/alice/rows/m-1?tz=-1")
        #expect((dayBefore.json["calls"] as? [[String: Any]])?.map { $0["id"] as? String } == ["m-1"])
        // An outgoing busy call is not in the missed view.
        #expect(try server.request("GET", "/v1/lists/alice/rows/b-2?filter=missed").status == 404)
    }

    @Test(
        arguments: Backend.available,
        ["b-5", "nope", "m-1"])
    func anIdNoRowOfTheViewHasIs404(backend: Backend, id: String) throws {
        let server = try seeded(backend)
        let response = try server.request("GET", "/v1/lists/alice/rows/\(id)")
        #expect(response.status == 404)
        #expect(response.headers["content-type"] == "application/problem+json")
        #expect(response.json["type"] as? String == "not-found")
        #expect((response.json["detail"] as? String)?.contains("'\(id)'") == true)
    }

    @Test(arguments: Backend.available)
    func aDeletedRowAndAnUnknownListAre404(backend: Backend) throws {
        let server = try seeded(backend)
        try server.request("POST", "/v1/lists/alice/rows/b-6/options/delete")
        #expect(try server.request("GET", "/v1/lists/alice/rows/b-6").status == 404)
        #expect(try server.request("GET", "/v1/lists/nobody/rows/b-6").status == 404)
        #expect(try server.request("GET", "/v1/lists/alice/rows/b%206").status == 404)
    }

    @Test(arguments: Backend.available)
    func etagAnswers304UntilTheListChanges(backend: Backend) throws {
        let server = try seeded(backend)
        let first = try server.request("GET", "/v1/lists/alice/rows/b-6")
        let etag = try #require(first.headers["etag"])
        let same = try server.request("GET", "/v1/lists/alice/rows/b-6", headers: [("If-None-Match", etag)])
        #expect(same.status == 304)
        #expect(same.body.isEmpty)
        let otherView = try server.request("GET", "/v1/lists/alice/rows/b-6?tz=60", headers: [("If-None-Match", etag)])
        #expect(otherView.status == 200)
        try server.request(
            "POST", "/v1/lists/alice/calls", body: callJSON("b-7", direction: "outgoing", timestamp: Self.day + 650))
        let changed = try server.request("GET", "/v1/lists/alice/rows/b-6", headers: [("If-None-Match", etag)])
        #expect(changed.status == 404)
        let joined = try server.request("GET", "/v1/lists/alice/rows/b-7", headers: [("If-None-Match", etag)])
        #expect(joined.status == 200)
        #expect((joined.json["calls"] as? [[String: Any]])?.count == 7)
    }

    @Test(arguments: Backend.available)
    func aLargeInfoAnswerIsCompressed(backend: Backend) throws {
        let server = try TestServer(backend)
        let calls = (0..<40).map { callJSON("c-\($0)", direction: "outgoing", timestamp: Self.day + $0) }
        try server.request("POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        let identity = try server.request("GET", "/v1/lists/alice/rows/c-39")
        #expect(identity.status == 200)
        #expect(identity.body.count > 1024)
        for coding in ["gzip", "br"] {
            let coded = try server.request("GET", "/v1/lists/alice/rows/c-39", headers: [("Accept-Encoding", coding)])
            #expect(coded.header("Content-Encoding") == coding)
            let name = try #require(coded.header("Content-Encoding"))
            #expect(try #require(ContentCoding(name)).decode(coded.body, limit: 1 << 20) == identity.body)
        }
    }

    @Test(arguments: Backend.available)
    func aReadTokenReadsItAndAnotherListsTokenCannot(backend: Backend) throws {
        let server = try seeded(backend, auth: true)
        let read = try server.request("GET", "/v1/lists/alice/rows/b-6", headers: bearer(liveToken("alice", .read)))
        #expect(read.status == 200)
        let write = try server.request("GET", "/v1/lists/alice/rows/b-6", headers: bearer(liveToken("alice", .write)))
        #expect(write.status == 403)
        let other = try server.request("GET", "/v1/lists/alice/rows/b-6", headers: bearer(liveToken("bob")))
        #expect(other.status == 403)
        #expect(try server.request("GET", "/v1/lists/alice/rows/b-6").status == 401)
    }

    /// A call joining the group renames the row (its id is its newest call's): the old id, now a
    /// call inside the row, still finds it through `calls/{callId}/row`, with the same body as the
    /// row's own URL and the same rules (the view groups, 404 for a call no row of the view has).
    @Test(arguments: Backend.available)
    func aCallFindsItsRowAfterTheGroupWasRenamed(backend: Backend) throws {
        let server = try seeded(backend)
        try server.request(
            "POST", "/v1/lists/alice/calls", body: callJSON("b-7", direction: "outgoing", timestamp: Self.day + 650))
        #expect(try server.request("GET", "/v1/lists/alice/rows/b-6").status == 404)
        let found = try server.request("GET", "/v1/lists/alice/calls/b-6/row")
        #expect(found.status == 200)
        #expect((found.json["row"] as? [String: Any])?["id"] as? String == "b-7")
        let own = try server.request("GET", "/v1/lists/alice/rows/b-7")
        #expect(found.body == own.body)
        #expect(found.headers["etag"] == own.headers["etag"])
        #expect(try server.request("GET", "/v1/lists/alice/calls/b-1/row").body == own.body)
        let unchanged = try server.request(
            "GET", "/v1/lists/alice/calls/b-1/row", headers: [("If-None-Match", try #require(own.headers["etag"]))])
        #expect(unchanged.status == 304)
        #expect(try SchemaConformance().problems(try JSONParser.parse(found.body), schema: "RowInfo") == [])
        // The missed view groups the two missed calls; an outgoing busy call is in none of its rows.
        let missed = try server.request("GET", "/v1/lists/alice/calls/m-1/row?filter=missed")
        #expect((missed.json["row"] as? [String: Any])?["id"] as? String == "m-2")
        for path in ["calls/b-2/row?filter=missed", "calls/nope/row", "calls/b%206/row"] {
            let response = try server.request("GET", "/v1/lists/alice/\(path)")
            #expect(response.status == 404, "\(path)")
            #expect(response.json["type"] as? String == "not-found", "\(path)")
        }
        try server.request("DELETE", "/v1/lists/alice/calls/b-6")
        #expect(try server.request("GET", "/v1/lists/alice/calls/b-6/row").status == 404)
    }

    @Test(arguments: Backend.available)
    func findingARowByACallNeedsTheListsReadToken(backend: Backend) throws {
        let server = try seeded(backend, auth: true)
        let path = "/v1/lists/alice/calls/b-1/row"
        #expect(try server.request("GET", path, headers: bearer(liveToken("alice", .read))).status == 200)
        #expect(try server.request("GET", path, headers: bearer(liveToken("bob"))).status == 403)
        #expect(try server.request("GET", path).status == 401)
    }
}

/// The row member of a row's info, decoded as clients decode rows.
private struct RowOfInfo: Decodable {
    var row: Row
}
