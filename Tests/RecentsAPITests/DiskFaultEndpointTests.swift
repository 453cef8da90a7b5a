import Foundation
import RecentsTestSupport
import Testing

@testable import RecentsAPI
@testable import RecentsStore

/// A full disk end to end: the server's own writer connection capped with `PRAGMA max_page_count`.
@Suite struct DiskFaultEndpointTests {
    /// Caps (or uncaps) the running server's database at its current size.
    static func setFull(_ server: TestServer, _ full: Bool) throws {
        let store = try #require(server.store as? SQLiteListStore)
        let done = DispatchSemaphore(value: 0)
        let submitted = store.onWriter { context in
            let pages = (try? context.connection.queryInt("PRAGMA page_count")) ?? 1
            try? context.connection.execute("PRAGMA max_page_count = \(full ? pages : 1_073_741_823)")
            done.signal()
        }
        #expect(submitted)
        done.wait()
    }

    /// A batch too wide to fit in the free space of existing pages.
    static func bigBody(_ prefix: String) -> String {
        let name = String(repeating: "n", count: 200)
        let calls = (0..<300).map {
            callJSON("\(prefix)-\($0)", peer: "p\($0)", name: name, timestamp: 1_764_460_800 + $0)
        }
        return #"{"calls": [\#(calls.joined(separator: ","))]}"#
    }

    @Test func writesGet503StorageUnavailableWhileReadsAndHealthKeepAnswering() throws {
        // SQLite only: the fault is injected with SQLite's max_page_count on the writer's connection.
        let server = try TestServer(.sqlite, socket: true)
        let first = try server.request("POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: 1_764_460_800))
        #expect(first.status == 201)
        #expect(try server.request("GET", "/healthz").text == #"{"status":"ok"}"#)

        try Self.setFull(server, true)
        let refused = try server.request("POST", "/v1/lists/alice/calls", body: Self.bigBody("full"))
        #expect(refused.status == 503)
        #expect(refused.headers["content-type"] == "application/problem+json")
        #expect(refused.headers["retry-after"] == "5")
        #expect(refused.json["type"] as? String == "storage-unavailable")

        let health = try server.request("GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.json["status"] as? String == "degraded")
        #expect(health.json["reason"] as? String == "the disk is full")

        // Reads are served, and show nothing of the refused write.
        let list = try server.request("GET", "/v1/lists/alice")
        #expect(list.status == 200)
        #expect(int(list.json["version"]) == 1)
        #expect(int(list.json["callCount"]) == 1)
        #expect(try server.request("GET", "/v1/lists/alice/rows").status == 200)

        // Space returns: the same write succeeds without a restart and health is ok again.
        try Self.setFull(server, false)
        let retried = try server.request("POST", "/v1/lists/alice/calls", body: Self.bigBody("full"))
        #expect(retried.status == 201)
        #expect(int(retried.json["version"]) == 2)
        #expect(try server.request("GET", "/healthz").text == #"{"status":"ok"}"#)
    }
}
