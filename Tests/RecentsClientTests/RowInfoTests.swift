import Foundation
import RecentsClient
import RecentsCore
import Testing

/// `RecentsClient.rowInfo` against a live server: the info page's row, its calls and their kinds.
@Suite("Row info", .timeLimit(.minutes(1)))
struct RowInfoTests {
    static let noon: Int64 = 1_764_460_800 + 12 * 3600

    /// Bob's voice calls of one day that are not of the missed class: one row of five, each kind
    /// of Telegram's table but `missed` by way of an incoming busy call. Newest last.
    static let bobsRow: [(NewCall, RowInfo.Kind)] = {
        let table: [(CallDirection, EndReason, RowInfo.Kind)] = [
            (.incoming, .hangup, .incoming), (.outgoing, .hangup, .outgoing), (.outgoing, .missed, .cancelled),
            (.incoming, .busy, .missed), (.incoming, .disconnect, .cancelled),
        ]
        return table.enumerated().map { index, row in
            let call = NewCall(
                id: "b-\(index + 1)", peer: .init(id: "bob"), direction: row.0, endReason: row.1,
                duration: row.1 == .hangup ? 60 : 0, timestamp: noon + Int64(index * 60))
            return (call, row.2)
        }
    }()

    @Test func aRowComesWithItsCallsNewestFirstEachWithItsKind() async throws {
        let server = try LiveServer()
        let client = server.client()
        try await client.postCalls(Self.bobsRow.map(\.0), to: "alice")
        let info = try await client.rowInfo(list: "alice", rowId: "b-5")
        let page = try await client.rows(of: "alice")
        #expect(info.row == page.rows.first && info.version == page.version && info.epoch == page.epoch)
        #expect(
            info.calls.map(\.id) == info.row.callIds && info.calls.map(\.id) == ["b-5", "b-4", "b-3", "b-2", "b-1"])
        #expect(info.calls.map(\.kind) == Self.bobsRow.reversed().map(\.1))
        #expect(info.calls.map(\.duration) == Self.bobsRow.reversed().map(\.0.duration))
    }

    @Test func aCallInsideARowOrOfAnotherViewIsATypedNotFound() async throws {
        let server = try LiveServer()
        let client = server.client()
        try await client.postCalls(Self.bobsRow.map(\.0), to: "alice")
        for (rowId, view) in [
            ("b-4", ViewParameters.default), ("b-5", ViewParameters(filter: .missed)), ("x", .default),
        ] {
            let error = await #expect(throws: RecentsClientError.self) {
                try await client.rowInfo(list: "alice", rowId: rowId, view: view)
            }
            #expect(error?.problem?.status == 404 && error?.problem?.type == "not-found", "\(rowId) in \(view.filter)")
        }
    }

    @Test func anUnchangedRowIsNotModifiedUntilTheListMoves() async throws {
        let server = try LiveServer()
        let client = server.client()
        try await client.postCalls(Self.bobsRow.map(\.0), to: "alice")
        let info = try await client.rowInfo(list: "alice", rowId: "b-5")
        let etag = try #require(info.etag)
        #expect(try await client.rowInfo(list: "alice", rowId: "b-5", ifNoneMatch: etag) == nil)
        let joining = NewCall(id: "b-6", peer: .init(id: "bob"), direction: .outgoing, timestamp: Self.noon + 3600)
        try await client.postCalls([joining], to: "alice")
        let moved = try #require(try await client.rowInfo(list: "alice", rowId: "b-6", ifNoneMatch: etag))
        #expect(moved.calls.map(\.id) == ["b-6"] + info.calls.map(\.id) && moved.etag != etag)
    }

    @Test func aRowRenamedByAJoiningCallIsFoundByItsOldId() async throws {
        let server = try LiveServer()
        let client = server.client()
        try await client.postCalls(Self.bobsRow.map(\.0), to: "alice")
        let joining = NewCall(id: "b-6", peer: .init(id: "bob"), direction: .outgoing, timestamp: Self.noon + 3600)
        try await client.postCalls([joining], to: "alice")
        let found = try await client.rowInfo(list: "alice", containing: "b-5")
        #expect(found.row.id == "b-6" && found.calls.map(\.id) == ["b-6", "b-5", "b-4", "b-3", "b-2", "b-1"])
        #expect(found.etag != nil)
        let error = await #expect(throws: RecentsClientError.self) {
            try await client.rowInfo(list: "alice", containing: "b-5", view: ViewParameters(filter: .missed))
        }
        #expect(error?.problem?.status == 404)
    }

    @Test func aKindThisClientDoesNotKnowDecodesAsUnknown() throws {
        let call = #"{"id":"c","timestamp":1,"direction":"incoming","endReason":"hangup","duration":0,"video":true,"#
        let decoded = try JSONDecoder().decode(RowInfo.Call.self, from: Data((call + #""kind":"voicemail"}"#).utf8))
        #expect(decoded.kind == .unknown("voicemail") && decoded.video)
        let known = try JSONDecoder().decode(RowInfo.Call.self, from: Data((call + #""kind":"missed"}"#).utf8))
        #expect(known.kind == .missed)
    }
}
