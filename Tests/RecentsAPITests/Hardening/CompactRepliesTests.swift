import Foundation
import RecentsCompression
import RecentsCore
import RecentsStore
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// A keyed `POST …/calls` keeps a few bytes, not its answer, and a retry still gets the first
/// answer byte for byte (issue 38, item 3).
@Suite struct CompactRepliesTests {
    /// A batch of `count` calls, every `withoutId`-th without an id (the server makes those).
    static func batch(_ count: Int, withoutId: Int? = nil) -> String {
        let calls = (0..<count).map { n -> String in
            let id = withoutId.map { n % $0 == 0 } == true ? "" : #""id": "c-\#(n)", "#
            return
                #"{\#(id)"peer": {"id": "p-\#(n % 40)", "name": "Peer \#(n % 40)"}, "direction": "incoming", "timestamp": \#(1_764_460_800 + n)}"#
        }
        return #"{"calls": [\#(calls.joined(separator: ","))]}"#
    }

    /// What the store keeps for `key` in `list`.
    static func recorded(_ server: TestServer, _ key: String, in list: String) async throws -> IdempotentReply? {
        try await server.store.write { tx in try tx.idempotentReply(key: key, in: list) }.value
    }

    @Test(arguments: Backend.available)
    func aBatchsAnswerIsKeptAsTheIdsTheServerMadeAndReplayedByteForByte(backend: Backend) async throws {
        let server = try TestServer(backend)
        let body = Self.batch(1000, withoutId: 4)
        let headers = [("Idempotency-Key", "batch-1")]
        let first = try server.request("POST", "/v1/lists/alice/calls", body: body, headers: headers)
        #expect(first.status == 201)
        let kept = try #require(try await Self.recorded(server, "batch-1", in: "alice"))
        #expect(kept.form == .recipe)
        // "1" and 250 ids of 14 bytes, where the answer is over 100 KB.
        #expect(first.body.count > 100_000 && kept.body.count == 1 + 250 * 15)
        let retry = try server.request("POST", "/v1/lists/alice/calls", body: body, headers: headers)
        #expect(retry.status == 201 && retry.header("Idempotent-Replayed") == "true")
        #expect(retry.body == first.body)
        // Compressed another way, it is the same request.
        let gzipped = try server.request(
            "POST", "/v1/lists/alice/calls", bytes: Gzip.encode(Array(body.utf8), level: 6),
            headers: headers + [("Content-Encoding", "gzip")])
        #expect(gzipped.body == first.body)
        #expect(int(try server.request("GET", "/v1/lists/alice").json["callCount"]) == 1000)
    }

    /// The issue's amplification: a keyed retry of a batch that changes nothing costs a row of a
    /// few bytes, not the answer's 343 KB.
    @Test(arguments: Backend.available)
    func aBatchThatChangesNothingKeepsOnlyItsVersion(backend: Backend) async throws {
        let server = try TestServer(backend)
        let body = Self.batch(1000)
        #expect(try server.request("POST", "/v1/lists/alice/calls", body: body).status == 201)
        for key in ["again-1", "again-2"] {
            let again = try server.request(
                "POST", "/v1/lists/alice/calls", body: body, headers: [("Idempotency-Key", key)])
            #expect(again.status == 200)
            #expect(try await Self.recorded(server, key, in: "alice")?.body == Array("1".utf8))
            let replay = try server.request(
                "POST", "/v1/lists/alice/calls", body: body, headers: [("Idempotency-Key", key)])
            #expect(replay.body == again.body && replay.status == 200)
        }
    }

    /// Other writes keep their answer's bytes, as before: they are small.
    @Test(arguments: Backend.available)
    func otherWritesKeepTheirAnswer(backend: Backend) async throws {
        let server = try TestServer(backend)
        let answer = try server.request(
            "PUT", "/v1/lists/alice/editing", body: #"{"editing": true}"#, headers: [("Idempotency-Key", "e")])
        let kept = try #require(try await Self.recorded(server, "e", in: "alice"))
        #expect(kept.form == .answer && kept.body == answer.body)
    }

    @Test func aRecipeReadsBackWhatItKept() {
        typealias Recipe = ReplyRecipe<ListRequest<[CallDraft]>, [Call]>
        let two = Recipe.decode(Recipe.encode(version: 7, ["c-a", "c-b"]))
        #expect(two?.version == 7 && two?.kept == ["c-a", "c-b"])
        let none = Recipe.decode(Recipe.encode(version: 0, []))
        #expect(none?.version == 0 && none?.kept == [])
        #expect(Recipe.decode(Array("{\"version\":1}".utf8)) == nil)
    }
}
