import Foundation
import Testing

@testable import RecentsCLI

/// `recents shards`: the placement listed by shard, and a move's mistakes refused before any
/// database is reached (the move itself: BucketMoveTests and scripts/check-shard-move.py).
@Suite struct ShardsCommandTests {
    /// A placement file of two shards, a holding buckets 0-10 and 20, b the rest; removed on deinit.
    final class PlacementFile {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shards-\(UUID()).json").path

        init() throws {
            let text = #"""
                {"shards": {"a": "postgresql://127.0.0.1:1/a", "b": "postgresql://127.0.0.1:1/b"},
                 "buckets": [{"from": 0, "to": 10, "shard": "a"}, {"from": 11, "to": 19, "shard": "b"},
                             {"from": 20, "to": 20, "shard": "a"}, {"from": 21, "to": 4095, "shard": "b"}]}
                """#
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    @Test(arguments: [["shards"], ["shards", "status"], ["shards", "list"]])
    func eachShardIsListedWithItsBucketRanges(_ command: [String]) throws {
        let file = try PlacementFile()
        let result = run(command + ["--placement", file.path])
        #expect(result.status == 0)
        #expect(result.standard == ["a: 12 buckets: 0-10, 20", "b: 4084 buckets: 11-19, 21-4095"])
    }

    @Test func aMoveNeedsATargetOtherThanTheBucketsShardAndABucketInRange() throws {
        let file = try PlacementFile()
        let same = run(["shards", "move", "20", "--to", "a", "--placement", file.path])
        #expect(same.status == 1)
        #expect(same.error == ["recents shards: error: bucket 20 is already on shard 'a'"])
        let unknown = run(["shards", "move", "20", "--to", "c", "--placement", file.path])
        #expect(unknown.status == 1 && unknown.error.first?.contains("no shard named 'c'") == true)
        #expect(run(["shards", "move", "20", "--placement", file.path]).status == 2)
        #expect(run(["shards", "move", "4096", "--to", "b", "--placement", file.path]).status == 2)
        #expect(run(["shards", "move", "20", "--to", "b"]).status == 2)
    }

    @Test func theSubcommandWordsAreFlagsOfOneCommand() {
        #expect(
            ShardsCommand.normalized(["shards", "move", "7", "--to", "b"]) == ["shards", "--move", "7", "--to", "b"])
        #expect(ShardsCommand.normalized(["shards", "status", "--placement", "f"]) == ["shards", "--placement", "f"])
        #expect(ShardsCommand.normalized(["seed", "move", "7"]) == ["seed", "move", "7"])
    }
}
