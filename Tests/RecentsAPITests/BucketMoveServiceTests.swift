import Foundation
import RecentsTestSupport
import Testing

@testable import RecentsStore

/// The API while `recents shards move` moves a list's bucket between two shards (two schemas of
/// the test server): writes answer 503 `bucket-moving` with `Retry-After` during the fence, and on
/// the old shard after the switch only while the placement file does not name the new one (else
/// they run there), reads go on, and after it the list answers as before: the same
/// transitions from an old version, the same bytes for a keyed retry, versions going on.
@Suite(.enabled(if: Backend.available.contains(.postgresql)))
struct BucketMoveServiceTests {
    static let day = 1_764_460_800

    @Test func aMovedListAnswersAsBeforeAndItsWritesAreRefusedNeverStoredTwice() throws {
        let (a, b) = (try TestDatabase(.postgresql), try TestDatabase(.postgresql))
        let path = a.directory.appendingPathComponent("placement.json").path
        let file = #"""
            {"shards": {"a": "\#(a.location)", "b": "\#(b.location)"},
             "buckets": [{"from": 0, "to": 2047, "shard": "a"}, {"from": 2048, "to": 4095, "shard": "b"}]}
            """#
        try Data(file.utf8).write(to: URL(fileURLWithPath: path))
        let server = try TestServer(on: a) { $0.store.placement = path }
        let store = try #require(server.store as? ShardedListStore)
        // The test says when the instance reads the new placement.
        store.follower.stopWatching()
        let list = ShardedServiceTests.list(on: 0, "mover")
        let bucket = Bucket.of(list)
        let key = [("Idempotency-Key", "k-1")]
        let first = try server.request(
            "POST", "/v1/lists/\(list)/calls", body: callJSON("c-1", timestamp: Self.day), headers: key)
        #expect(first.status == 201)
        #expect(
            try server.request("POST", "/v1/lists/\(list)/calls", body: callJSON("c-2", timestamp: Self.day + 60))
                .status == 201)
        let transition = try server.request("GET", "/v1/lists/\(list)/transitions?since=1")
        #expect(transition.status == 200)

        // The fence, as the mover takes it: writes refused at once, reads served.
        let fence = try PGConnection(uri: a.location)
        try fence.query("SELECT pg_advisory_lock($1, $2)", Int(BucketFence.lockSpace), bucket)
        let fenced = try server.request(
            "POST", "/v1/lists/\(list)/calls", body: callJSON("c-3", timestamp: Self.day + 120))
        #expect(fenced.status == 503)
        #expect(fenced.json["type"] as? String == "bucket-moving")
        #expect(fenced.header("Retry-After") == "1")
        #expect(try server.request("GET", "/v1/lists/\(list)/rows").status == 200)
        try fence.query("SELECT pg_advisory_unlock($1, $2)", Int(BucketFence.lockSpace), bucket)

        let report = try BucketMover(bucket: bucket, placement: path, to: "b").run()
        #expect(report.lists == 1)
        // Not yet following the new file: the keyed retry reaches shard a, which refuses it; the
        // refusal makes the instance read the file, and the retry runs on b, where the key is.
        #expect(store.follower.shardIndex(of: list) == 0)
        let replay = try server.request(
            "POST", "/v1/lists/\(list)/calls", body: callJSON("c-1", timestamp: Self.day), headers: key)
        #expect(replay.status == 201 && replay.header("Idempotent-Replayed") == "true")
        #expect(replay.body == first.body)
        #expect(store.follower.shardIndex(of: list) == 1)
        let again = try server.request("GET", "/v1/lists/\(list)/transitions?since=1")
        #expect(again.status == 200 && again.body == transition.body)
        let next = try server.request(
            "POST", "/v1/lists/\(list)/calls", body: callJSON("c-3", timestamp: Self.day + 120))
        #expect(next.status == 201 && int(next.json["version"]) == 3)
        #expect(
            try PGConnection(uri: a.location).query("SELECT count(*) FROM calls WHERE call_id = 'c-3'").int(0, 0) == 0)

        // A bucket shard a marks moved while the file still places it there: the refusal reaches
        // the client, with when to retry.
        let other = ShardedServiceTests.list(on: 0, "left")
        try fence.query(
            "INSERT INTO moved_buckets (bucket, to_shard, moved_at) VALUES ($1, 'b', 0)", Bucket.of(other))
        let refused = try server.request(
            "POST", "/v1/lists/\(other)/calls", body: callJSON("c-1", timestamp: Self.day))
        #expect(refused.status == 503 && refused.json["type"] as? String == "bucket-moving")
        #expect(refused.header("Retry-After") == "1")
        #expect(next.json["epoch"] as? String == server.epoch)
    }
}
