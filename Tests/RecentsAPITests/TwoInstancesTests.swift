import Foundation
import RecentsTestSupport
import Testing

/// Two servers on one PostgreSQL database, end to end over HTTP: what instances that share
/// nothing but the database must agree on (issue 14). PostgreSQL only: two processes cannot
/// share one SQLite file's writer.
@Suite(.enabled(if: Backend.available.contains(.postgresql))) struct TwoInstancesTests {
    static let day = 1_764_460_800

    @Test func bothAnswerOneEpochAndAWriteOnOneIsReadOnTheOther() throws {
        let database = try TestDatabase(.postgresql)
        let a = try TestServer(on: database, socket: true)
        let b = try TestServer(on: database, socket: true)
        #expect(a.epoch == b.epoch)
        let written = try a.request("POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: Self.day))
        #expect(written.status == 201)
        // Acknowledged by A, so B must answer at least that version (its cache checks the database).
        let rows = try b.request("GET", "/v1/lists/alice/rows")
        #expect(int(rows.json["version"]) == 1)
        #expect((rows.json["rows"] as? [[String: Any]])?.first?["id"] as? String == "c-1")
    }

    @Test func aWriteOnOneAnswersALongPollParkedOnTheOther() throws {
        let database = try TestDatabase(.postgresql)
        let a = try TestServer(on: database, socket: true)
        let b = try TestServer(on: database, socket: true)
        let waiter = try b.client()
        try waiter.sendRaw(Array("GET /v1/lists/alice/transitions?since=0&wait=20 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try b.waitForParked(1))
        #expect(
            try a.request("POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: Self.day)).status == 201)
        let reply = try waiter.readResponse().decode(TransitionReply.self)
        #expect(reply.to == 1)
        #expect(reply.inserts.map(\.id) == ["c-1"])
    }
}
