import Foundation
import RecentsTestSupport
import Testing

/// `Idempotency-Key` on every write (issue 22: a client's offline queue resends each action with
/// its key, and each must land exactly once): a retry replays the first answer and writes
/// nothing; the same key on another request of the list is 422.
@Suite struct IdempotentWritesTests {
    /// One write of each endpoint, on a list whose calls `c-1` (bob) and `c-2` (carol) exist.
    struct Write: Sendable, CustomTestStringConvertible {
        var method: String
        var target: String
        var body: String?
        var testDescription: String { "\(method) \(target)" }
    }

    static let writes: [Write] = [
        Write(method: "PUT", target: "/v1/lists/alice/rows/c-1/reveal", body: #"{"revealed": true}"#),
        Write(method: "PUT", target: "/v1/lists/alice/editing", body: #"{"editing": true}"#),
        Write(
            method: "POST", target: "/v1/lists/alice/rows/c-1/gesture",
            body: #"{"initialOffset": 0, "offset": -60, "velocity": -30}"#),
        Write(method: "POST", target: "/v1/lists/alice/rows/c-1/options/delete", body: nil),
        Write(method: "POST", target: "/v1/lists/alice/clear", body: nil),
        Write(method: "POST", target: "/v1/lists/alice/seen", body: #"{"through": 150}"#),
        Write(method: "DELETE", target: "/v1/lists/alice/calls/c-1", body: nil),
        Write(method: "DELETE", target: "/v1/lists/alice", body: nil),
    ]

    private func seeded(_ backend: Backend) throws -> TestServer {
        let server = try TestServer(backend)
        let calls =
            #"{"calls": [\#(callJSON("c-1", peer: "bob", timestamp: 100)), \#(callJSON("c-2", peer: "carol", timestamp: 200))]}"#
        #expect(try server.request("POST", "/v1/lists/alice/calls", body: calls).status == 201)
        return server
    }

    private func version(_ server: TestServer) throws -> Int? {
        int(try server.request("GET", "/v1/lists/alice").json["version"])
    }

    @Test(arguments: Backend.available, writes)
    func aRetryReplaysTheFirstAnswerAndWritesNothing(backend: Backend, write: Write) throws {
        let server = try seeded(backend)
        let key = [("Idempotency-Key", "action-1")]
        let first = try server.request(write.method, write.target, body: write.body, headers: key)
        #expect(first.status == 200, "\(first.text)")
        #expect(first.header("Idempotent-Replayed") == nil)
        let after = try version(server)
        #expect(after == 2, "the first attempt made one version")
        let retry = try server.request(write.method, write.target, body: write.body, headers: key)
        #expect(retry.status == first.status)
        #expect(retry.body == first.body)
        #expect(retry.header("Idempotent-Replayed") == "true")
        #expect(try version(server) == after, "the retry wrote nothing")
    }

    @Test(arguments: Backend.available)
    func theSameKeyOnAnotherTargetIs422EvenWithTheSameEmptyBody(backend: Backend) throws {
        let server = try seeded(backend)
        let key = [("Idempotency-Key", "delete-1")]
        #expect(try server.request("DELETE", "/v1/lists/alice/calls/c-1", headers: key).status == 200)
        let other = try server.request("DELETE", "/v1/lists/alice/calls/c-2", headers: key)
        #expect(other.status == 422)
        #expect(other.json["type"] as? String == "idempotency-key-reused")
        #expect(int(try server.request("GET", "/v1/lists/alice").json["callCount"]) == 1, "c-2 was not deleted")
    }
}
