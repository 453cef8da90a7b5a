import Foundation
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// `--max-calls-per-list`: a write that would take a list beyond it gets 409 `list-full` and
/// stores nothing; deleting, clearing or forgetting makes room again (issue 42).
@Suite struct ListQuotaTests {
    private func post(_ server: TestServer, _ list: String, _ calls: [String]) throws -> TestResponse {
        try server.request("POST", "/v1/lists/\(list)/calls", body: #"{"calls": [\#(calls.joined(separator: ", "))]}"#)
    }

    private func count(_ server: TestServer, _ list: String) throws -> Int? {
        int(try server.request("GET", "/v1/lists/\(list)").json["callCount"])
    }

    @Test(arguments: Backend.available) func aWriteBeyondTheQuotaStoresNothing(backend: Backend) throws {
        let server = try TestServer(backend) { $0.maxCallsPerList = 3 }
        #expect(
            try post(server, "alice", [callJSON("c-1", timestamp: 1), callJSON("c-2", timestamp: 2)]).status == 201)
        let full = try post(server, "alice", [callJSON("c-3", timestamp: 3), callJSON("c-4", timestamp: 4)])
        #expect(full.status == 409)
        #expect(full.json["type"] as? String == "list-full")
        #expect(full.headers["content-type"] == "application/problem+json")
        let list = try server.request("GET", "/v1/lists/alice")
        #expect(int(list.json["version"]) == 1)
        #expect(int(list.json["callCount"]) == 2)
        // A retry of stored calls adds none, so it is answered even at the limit.
        #expect(try post(server, "alice", [callJSON("c-3", timestamp: 3)]).status == 201)
        #expect(try post(server, "alice", [callJSON("c-1", timestamp: 1)]).status == 200)
        #expect(try post(server, "alice", [callJSON("c-5", timestamp: 5)]).status == 409)
        #expect(try count(server, "alice") == 3)
    }

    @Test(arguments: Backend.available) func deletesClearsAndForgetsMakeRoomAgain(backend: Backend) throws {
        let server = try TestServer(backend) { $0.maxCallsPerList = 2 }
        let two = [callJSON("c-1", peer: "bob", timestamp: 1), callJSON("c-2", peer: "bob", timestamp: 2)]
        #expect(try post(server, "alice", two).status == 201)
        #expect(try post(server, "alice", [callJSON("c-3", timestamp: 3)]).status == 409)
        #expect(try server.request("DELETE", "/v1/lists/alice/calls/c-1").status == 200)
        #expect(try count(server, "alice") == 1)
        #expect(try post(server, "alice", [callJSON("c-3", timestamp: 3)]).status == 201)

        #expect(try server.request("POST", "/v1/lists/alice/clear", body: #"{"scope": "me"}"#).status == 200)
        #expect(try count(server, "alice") == 0)
        #expect(try post(server, "alice", two).status == 201)

        #expect(try server.request("DELETE", "/v1/lists/alice").status == 200)
        #expect(try count(server, "alice") == 0)
        #expect(try post(server, "alice", two).status == 201)
        #expect(try count(server, "alice") == 2)

        // Delete for everyone reaches bob's copies and his count with them.
        let copies = [callJSON("c-1", peer: "alice", timestamp: 1), callJSON("c-2", peer: "alice", timestamp: 2)]
        #expect(try post(server, "bob", copies).status == 201)
        #expect(try server.request("POST", "/v1/lists/alice/clear", body: #"{"scope": "everyone"}"#).status == 200)
        #expect(try count(server, "bob") == 0)
        #expect(try post(server, "bob", copies).status == 201)
    }
}
