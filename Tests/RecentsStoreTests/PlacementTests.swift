import Foundation
import SystemSupport
import Testing

@testable import RecentsStore

/// Placement: the stable hash of a list's name, the placement file's checks, and a change of the
/// file seen by every instance that follows it.
@Suite struct PlacementTests {
    /// Values computed once (Python's hashlib: the first 8 bytes of SHA-256, big-endian, mod
    /// 4096): if any changes, every deployed list would move to another shard.
    @Test func bucketsArePinnedForGood() {
        #expect(Bucket.count == 4096)
        #expect(Bucket.of("alice") == 175)
        #expect(Bucket.of("bob") == 1754)
        #expect(Bucket.of("list-1") == 3691)
        #expect(Bucket.of("Zoë") == 272)
    }

    @Test func aFileMapsEveryBucketToItsShard() throws {
        let placement = try Placement.parse(Self.file(split: 1000))
        #expect(placement.shards.map(\.name) == ["a", "b"])
        #expect(placement.shardIndex(ofBucket: 0) == 0)
        #expect(placement.shardIndex(ofBucket: 999) == 0)
        #expect(placement.shardIndex(ofBucket: 1000) == 1)
        #expect(placement.shardIndex(of: "alice") == 0)  // bucket 175
        #expect(placement.shardIndex(of: "list-1") == 1)  // bucket 3691
    }

    @Test(arguments: [
        (
            #"{"from": 0, "to": 2000, "shard": "a"}, {"from": 2002, "to": 4095, "shard": "b"}"#,
            "buckets 2001-2001 are on no shard"
        ),
        (
            #"{"from": 0, "to": 2000, "shard": "a"}, {"from": 2000, "to": 4095, "shard": "b"}"#,
            "bucket 2000 is placed twice"
        ),
        (#"{"from": 0, "to": 4095, "shard": "c"}"#, "unknown shard 'c'"),
        (#"{"from": 0, "to": 4096, "shard": "a"}"#, "must satisfy 0 <= from <= to <= 4095"),
        (#"{"from": 0, "to": 4095}"#, "needs from, to and shard"),
    ])
    func aBadFileSaysWhatIsWrong(ranges: String, problem: String) {
        let text = #"{"shards": {"a": "postgresql://h/a", "b": "postgresql://h/b"}, "buckets": ["# + ranges + "]}"
        #expect {
            try Placement.parse(Array(text.utf8))
        } throws: { error in
            "\(error)".contains(problem)
        }
    }

    @Test func aShardMustBeAPostgreSQLURI() {
        let text = #"{"shards": {"a": "/var/lib/recents.sqlite"}, "buckets": [{"from": 0, "to": 4095, "shard": "a"}]}"#
        #expect(throws: PlacementError("shard 'a' must be a postgresql:// URI")) {
            try Placement.parse(Array(text.utf8))
        }
    }

    @Test func twoFollowersOfOneFileBothSeeAChange() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("placement-\(UUID().uuidString).json")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(Self.file(split: 2048)).write(to: URL(fileURLWithPath: path))
        let followers = [try PlacementFollower(path: path), try PlacementFollower(path: path)]
        #expect(followers.allSatisfy { $0.shardIndex(of: "alice") == 0 })
        // Bucket 175 (alice) moves to b; a rename, as deploy tools replace a file.
        try Data(Self.file(split: 100)).write(to: URL(fileURLWithPath: path), options: .atomic)
        #expect(followers.allSatisfy { $0.reload() })
        #expect(followers.allSatisfy { $0.shardIndex(of: "alice") == 1 })
        #expect(followers.allSatisfy { !$0.reload() })
    }

    @Test func aBadChangeKeepsThePlacementInUse() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("placement-\(UUID().uuidString).json")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(Self.file(split: 2048)).write(to: URL(fileURLWithPath: path))
        let follower = try PlacementFollower(path: path)
        try Data(#"{"shards": {"a": "postgresql://h/a"}, "buckets": []}"#.utf8).write(
            to: URL(fileURLWithPath: path), options: .atomic)
        #expect(!follower.reload())
        let other = Self.file(split: 100, second: "postgresql://elsewhere/b")
        try Data(other).write(to: URL(fileURLWithPath: path), options: .atomic)
        #expect(!follower.reload())
        #expect(follower.placement == (try Placement.parse(Self.file(split: 2048))))
    }

    /// Two shards, buckets below `split` on a, the rest on b.
    static func file(split: Int, second: String = "postgresql://h/b") -> [UInt8] {
        Array(
            """
            {"shards": {"a": "postgresql://h/a", "b": "\(second)"},
             "buckets": [{"from": 0, "to": \(split - 1), "shard": "a"}, {"from": \(split), "to": 4095, "shard": "b"}]}
            """.utf8)
    }
}
