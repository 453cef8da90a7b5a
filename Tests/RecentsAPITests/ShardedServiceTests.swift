import Foundation
import RecentsTestSupport
import Testing

@testable import RecentsStore

/// The API over lists placed on two shards (`--placement`): shard a a schema of the test server,
/// shard b a cluster of the test's own, which one test stops. Every list works on either shard;
/// a delete for everyone reaches the peer's list on the other shard through the outbox.
@Suite(.enabled(if: Backend.available.contains(.postgresql) && ThrowawayCluster.isAvailable))
struct ShardedServiceTests {
    static let day = 1_764_460_800
    let onA = Self.list(on: 0, "alice")
    let onB = Self.list(on: 1, "bob")

    /// A server on two shards: the test server's schema (a) and `cluster` (b).
    static func server(_ cluster: ThrowawayCluster) throws -> TestServer {
        let database = try TestDatabase(.postgresql)
        let path = database.directory.appendingPathComponent("placement.json").path
        let file = #"""
            {"shards": {"a": "\#(database.location)", "b": "\#(cluster.url)"},
             "buckets": [{"from": 0, "to": 2047, "shard": "a"}, {"from": 2048, "to": 4095, "shard": "b"}]}
            """#
        try Data(file.utf8).write(to: URL(fileURLWithPath: path))
        return try TestServer(on: database, socket: true) { $0.store.placement = path }
    }

    @Test func listsOnBothShardsAreWrittenReadFollowedAndRetried() throws {
        let cluster = try ThrowawayCluster()
        let server = try Self.server(cluster)
        for (list, peer) in [(onA, onB), (onB, onA)] {
            let posted = try server.request(
                "POST", "/v1/lists/\(list)/calls", body: callJSON("c-1", peer: peer, timestamp: Self.day))
            #expect(posted.status == 201)
            #expect(posted.json["epoch"] as? String == server.epoch)
            #expect(int(try server.request("GET", "/v1/lists/\(list)/rows").json["version"]) == 1)

            // A long-poll parked on the list is answered by the next write.
            let waiter = try server.client()
            try waiter.sendRaw(
                Array("GET /v1/lists/\(list)/transitions?since=1&wait=20 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(try server.waitForParked(1))
            let stream = try EventStreamClient(server, "/v1/lists/\(list)/events?since=1&epoch=\(server.epoch)")
            #expect(try stream.nextTransition().to == 1)  // the first event, sent even when empty
            let body = callJSON("c-2", peer: peer, timestamp: Self.day + 60)
            let key = [("Idempotency-Key", "k-\(list)")]
            #expect(try server.request("POST", "/v1/lists/\(list)/calls", body: body, headers: key).status == 201)
            #expect(try waiter.readResponse().decode(TransitionReply.self).to == 2)
            #expect(try stream.nextTransition().to == 2)

            // The retry is answered from the key recorded on the list's shard.
            let retry = try server.request("POST", "/v1/lists/\(list)/calls", body: body, headers: key)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(int(try server.request("GET", "/v1/lists/\(list)/rows").json["version"]) == 2)
        }
        let metrics = try server.request("GET", "/metrics").text
        #expect(metrics.contains(#"recents_shard_versions_written_total{shard="a"} 2"#))
        #expect(metrics.contains(#"recents_shard_versions_written_total{shard="b"} 2"#))
    }

    @Test func aDeleteAndAClearForEveryoneReachTheOtherShardAndWakeItsLongPoll() throws {
        let cluster = try ThrowawayCluster()
        let server = try Self.server(cluster)
        try Self.post("c-1", on: server, onA, onB)
        let waiter = try server.client()
        try waiter.sendRaw(Array("GET /v1/lists/\(onB)/transitions?since=1&wait=20 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try server.waitForParked(1))
        let deleted = try server.request(
            "POST", "/v1/lists/\(onA)/rows/c-1/options/delete", body: #"{"scope": "everyone"}"#)
        #expect(deleted.status == 200)
        #expect(deleted.json["deletedCallIds"] as? [String] == ["c-1"])
        // The peer's list moves on its own shard, after the caller's reply, and its long-poll wakes.
        #expect(try waiter.readResponse().decode(TransitionReply.self).to == 2)

        try Self.post("c-2", on: server, onA, onB)
        try waiter.sendRaw(Array("GET /v1/lists/\(onB)/transitions?since=3&wait=20 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try server.waitForParked(1))
        let cleared = try server.request("POST", "/v1/lists/\(onA)/clear", body: #"{"scope": "everyone"}"#)
        #expect(cleared.status == 200)
        #expect(try waiter.readResponse().decode(TransitionReply.self).to == 4)
        let rows = try server.request("GET", "/v1/lists/\(onB)/rows")
        #expect(int(rows.json["version"]) == 4)
        #expect((rows.json["rows"] as? [[String: Any]])?.isEmpty == true)
        let metrics = try server.request("GET", "/metrics").text
        #expect(metrics.contains(#"recents_shard_outbox_oldest_seconds{shard="a"}"#))
    }

    @Test func withOneShardStoppedHealthIsDegradedAndTheOtherShardsListsWork() throws {
        let cluster = try ThrowawayCluster()
        let server = try Self.server(cluster)
        try cluster.stop()
        let health = try server.request("GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.json["status"] as? String == "degraded")
        #expect((health.json["reason"] as? String)?.contains("shard 'b'") == true)
        #expect(
            try server.request("POST", "/v1/lists/\(onA)/calls", body: callJSON("c-1", timestamp: Self.day)).status
                == 201)
        #expect(int(try server.request("GET", "/v1/lists/\(onA)/rows").json["version"]) == 1)
        try cluster.start()
    }

    /// Posts call `id` to both lists, each naming the other as its peer.
    static func post(_ id: String, on server: TestServer, _ first: String, _ second: String) throws {
        for (list, peer) in [(first, second), (second, first)] {
            let posted = try server.request(
                "POST", "/v1/lists/\(list)/calls", body: callJSON(id, peer: peer, timestamp: Self.day))
            #expect(posted.status == 201)
        }
    }

    /// A list name placed on shard `index` of two (the first of `prefix-0`, `prefix-1`, …).
    static func list(on index: Int, _ prefix: String) -> String {
        (0..<10_000).lazy.map { "\(prefix)-\($0)" }.first { (Bucket.of($0) < Bucket.count / 2) == (index == 0) }
            ?? prefix
    }
}
