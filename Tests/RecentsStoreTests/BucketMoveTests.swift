import Foundation
import RecentsCore
import Synchronization
import SystemSupport
import Testing

@testable import RecentsStore

/// `BucketMover` between two databases of the test server: what it copies, the fence, the mark
/// on the shard a bucket left, and that it knows every table holding list rows.
@Suite(.enabled(if: Backend.available.contains(.postgresql))) struct BucketMoveTests {
    /// Everything a reader can see of `list` at every retained version, and its current info.
    static func observed(_ list: String, _ reader: any StoreReader) throws -> [String] {
        let info = try reader.listInfo(list)
        var seen = ["info \(info)"]
        for version in 0...info.version where try reader.isRetained(version, in: list) {
            let calls = try reader.calls(in: list, at: version).map { "\($0)" }
            let missed = try reader.calls(in: list, at: version, filter: .missed).map(\.id)
            seen.append(
                "v\(version) \(String(describing: try reader.state(of: list, at: version))) \(calls) \(missed) "
                    + "\(try reader.unseenMissed(in: list, at: version))")
        }
        return seen
    }

    @Test func aMoveCopiesEverythingAReaderSeesAtEveryVersionAndTheKeysWithTheirReplies() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        let list = ShardDatabases.list(on: 0, "moving")
        let neighbour = try #require((0..<10_000).lazy.map { "n-\($0)" }.first { Bucket.of($0) == Bucket.of(list) })
        let reply = IdempotentReply(fingerprint: "f-1", status: 201, body: Array(#"{"version": 2}"#.utf8))
        _ = try await store.write(in: list) { tx in
            try tx.insertCalls(
                [makeCall("c-1", timestamp: 100, missed: true), makeCall("c-2", timestamp: 200)], into: list)
        }
        _ = try await store.write(in: list) { tx in
            try tx.insertCalls([makeCall("c-3", timestamp: 300, missed: true)], into: list)
            try tx.recordIdempotentReply(reply, key: "k-1", in: list)
        }
        _ = try await store.write(in: list) { try $0.setState(ListState(editing: true, seenThrough: 150), of: list) }
        _ = try await store.write(in: list) { _ = try $0.deleteCalls(ids: ["c-2"], from: list) }
        _ = try await store.write(in: list) { try $0.clearCalls(of: list) }
        _ = try await store.write(in: list) { try $0.insertCalls([makeCall("c-4", timestamp: 400)], into: list) }
        _ = try await store.write(in: neighbour) { try $0.insertCalls([makeCall("x-1")], into: neighbour) }
        let before = try await store.read(in: list) { try Self.observed(list, $0) }
        let neighbourBefore = try await store.read(in: neighbour) { try Self.observed(neighbour, $0) }

        let mover = try BucketMover(bucket: Bucket.of(list), placement: shards.placementPath, to: "b")
        let report = try mover.run()
        #expect(report.lists == 2 && report.fenceSeconds < 1)
        #expect(store.follower.reload(force: true))
        #expect(store.follower.shardIndex(of: list) == 1)
        // Read on the new shard, the same at every version; the key answers with its bytes.
        #expect(try await store.read(in: list) { try Self.observed(list, $0) } == before)
        #expect(try await store.read(in: neighbour) { try Self.observed(neighbour, $0) } == neighbourBefore)
        #expect(try await store.stores[1].read { try Self.observed(list, $0) } == before)
        #expect(try await store.write(in: list) { try $0.idempotentReply(key: "k-1", in: list) }.value == reply)
        // Writes go on from the version the list had: the epoch is the fleet's, the versions moved.
        let next = try await store.write(in: list) { try $0.insertCalls([makeCall("c-5", timestamp: 500)], into: list) }
        #expect(next.versions == [list: 7])
        // The source's copy goes only when asked, and then whole.
        #expect(try await store.stores[0].read { try $0.listInfo(list).version } == 6)
        let (dropped, rows) = try mover.dropSource()
        #expect(dropped == 2 && rows > 10)
        #expect(try await store.stores[0].read { try $0.listInfo(list).exists } == false)
    }

    @Test func aWriteDuringTheFenceIsRefusedAndOneReachingTheOldShardAfterTheMoveToo() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        let list = ShardDatabases.list(on: 0, "fenced")
        let other = ShardDatabases.list(on: 0, "free-\(Bucket.of(list))")
        #expect(Bucket.of(other) != Bucket.of(list))
        _ = try await store.write(in: list) { try $0.insertCalls([makeCall("c-1")], into: list) }

        // The mover's fence, taken by hand: writes to the bucket are refused, not queued.
        let fence = try PGConnection(uri: shards.uris[0])
        try fence.query("SELECT pg_advisory_lock($1, $2)", Int(BucketFence.lockSpace), Bucket.of(list))
        await #expect(throws: BucketMovingError(list: list, bucket: Bucket.of(list), moved: false)) {
            try await store.write(in: list) { try $0.insertCalls([makeCall("c-2")], into: list) }
        }
        // Other buckets write on; reads of the fenced one too.
        #expect(
            try await store.write(in: other) { try $0.insertCalls([makeCall("c-1")], into: other) }.versions == [
                other: 1
            ])
        #expect(try await store.read(in: list) { try $0.listInfo(list).version } == 1)
        try fence.query("SELECT pg_advisory_unlock($1, $2)", Int(BucketFence.lockSpace), Bucket.of(list))

        _ = try BucketMover(bucket: Bucket.of(list), placement: shards.placementPath, to: "b").run()
        // This store has not read the new placement yet: its write reaches the old shard, which
        // refuses it; the refusal makes the store read the file, which names the new shard, and
        // the write runs there, once.
        #expect(store.follower.shardIndex(of: list) == 0)
        #expect(
            try await store.write(in: list) { try $0.insertCalls([makeCall("c-2")], into: list) }.versions == [list: 2])
        #expect(store.follower.shardIndex(of: list) == 1)
        #expect(try await store.stores[0].read { try $0.listInfo(list).version } == 1)
        #expect(try await store.stores[1].read { try $0.calls(in: list, at: 2).map(\.id) } == ["c-2", "c-1"])

        // A bucket marked moved while the file still places it here (the file not rewritten yet,
        // or an instance's copy of it not updated): nothing to run elsewhere, the refusal stands.
        let marker = try PGConnection(uri: shards.uris[0])
        try marker.query(
            "INSERT INTO moved_buckets (bucket, to_shard, moved_at) VALUES ($1, 'b', 0)", Bucket.of(other))
        await #expect(throws: BucketMovingError(list: other, bucket: Bucket.of(other), moved: true)) {
            try await store.write(in: other) { try $0.insertCalls([makeCall("c-2")], into: other) }
        }
        #expect(try await store.stores[0].read { try $0.listInfo(other).version } == 1)
    }

    /// Writes between the passes (here: at each step the mover reports) are copied by the next
    /// pass or by the last one under the fence, keys recorded without a new version included.
    @Test func writesWhileTheMoveCopiesAreCaughtUp() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        let list = ShardDatabases.list(on: 0, "busy")
        _ = try await store.write(in: list) { try $0.insertCalls([makeCall("c-0")], into: list) }
        let mover = try BucketMover(bucket: Bucket.of(list), placement: shards.placementPath, to: "b")
        mover.fenceWhenAtMost = 0
        var steps: [BucketMoveStep] = []
        // After the first copy, as the first catch-up pass begins (it copies that write too, so
        // the next pass finds nothing), and just before the fence (the last copy takes it).
        let report = try mover.run { step in
            steps.append(step)
            switch step {
            case .copied: Self.writeAndWait(store, list, "c-copied", key: "k-copied")
            case .catchingUp(let pass, _): Self.writeAndWait(store, list, "c-\(pass)", key: "k-\(pass)")
            case .fenced: Self.writeAndWait(store, list, "c-fenced", key: "k-fenced")
            default: break
            }
        }
        #expect(report.passes == 1)
        #expect(
            steps.contains(.catchingUp(pass: 1, lists: 1))
                && steps.contains(.switched(fenceSeconds: report.fenceSeconds, lists: 1)))
        store.follower.reload(force: true)
        let after = try await store.stores[1].read { try Self.observed(list, $0) }
        let before = try await store.stores[0].read { try Self.observed(list, $0) }
        #expect(after == before && after.first?.contains("version: 4") == true)
        #expect(try await store.write(in: list) { try $0.idempotentReply(key: "k-fenced", in: list) }.value != nil)
    }

    /// Inserts call `id` into `list` with a recorded reply under `key`, and waits for the commit.
    static func writeAndWait(_ store: ShardedListStore, _ list: String, _ id: String, key: String) {
        let done = DispatchSemaphore(value: 0)
        let reply = IdempotentReply(fingerprint: id, status: 201, body: Array("{}".utf8))
        store.write(in: list) { tx in
            try tx.insertCalls([makeCall(id)], into: list)
            try tx.recordIdempotentReply(reply, key: key, in: list)
        } completion: { _ in
            done.signal()
        }
        done.wait()
    }

    /// An instance that reads the new placement while a write of the bucket is on its way: the
    /// write was routed to the old shard, so it is refused there as moved (not as a request that
    /// reaches two shards, 501), and runs again on the new shard.
    @Test func aWriteWhoseListChangesShardsBeforeItRunsRunsAgainOnItsNewShard() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        let list = ShardDatabases.list(on: 0, "switching")
        let moved = try store.follower.placement.moving(bucket: Bucket.of(list), to: "b")
        let (follower, path) = (store.follower, shards.placementPath)
        let switched = Mutex(false)
        let outcome = try await store.write(in: list) { tx in
            // Bodies may run more than once (the writer plans a batch first): switch only once.
            let first = switched.withLock { was in
                defer { was = true }
                return !was
            }
            if first {
                try moved.write(to: path)
                follower.reload(force: true)
            }
            try tx.insertCalls([makeCall("c-1")], into: list)
        }
        #expect(outcome.versions == [list: 1])
        #expect(try await store.stores[1].read { try $0.listInfo(list).version } == 1)
        #expect(try await store.stores[0].read { try $0.listInfo(list).exists } == false)
    }

    /// A write refused as moved on the shard the file names too reaches the caller as that
    /// refusal (a write runs on one more shard at most; the file changing again is not followed).
    @Test func aWriteRefusedOnItsNewShardTooReachesTheCaller() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        let list = ShardDatabases.list(on: 0, "refused-twice")
        // Both databases say the bucket left them, and the file (not yet read) places it on b.
        for uri in shards.uris {
            try PGConnection(uri: uri).query(
                "INSERT INTO moved_buckets (bucket, to_shard, moved_at) VALUES ($1, 'a', 0)", Bucket.of(list))
        }
        try store.follower.placement.moving(bucket: Bucket.of(list), to: "b").write(to: shards.placementPath)
        #expect(store.follower.shardIndex(of: list) == 0)
        await #expect(throws: BucketMovingError(list: list, bucket: Bucket.of(list), moved: true)) {
            try await store.write(in: list) { try $0.insertCalls([makeCall("c-1")], into: list) }
        }
        // The refusal on a made the store read the file; b refused as well, and the caller heard.
        #expect(store.follower.shardIndex(of: list) == 1)
        for shard in 0..<2 {
            #expect(try await store.stores[shard].read { try $0.listInfo(list).exists } == false)
        }
    }

    @Test func aMoveBackClearsTheMarkOnTheShardItReturnsTo() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        let list = ShardDatabases.list(on: 0, "back")
        _ = try await store.write(in: list) { try $0.insertCalls([makeCall("c-1")], into: list) }
        _ = try BucketMover(bucket: Bucket.of(list), placement: shards.placementPath, to: "b").run()
        store.follower.reload(force: true)
        _ = try await store.write(in: list) { try $0.insertCalls([makeCall("c-2")], into: list) }
        _ = try BucketMover(bucket: Bucket.of(list), placement: shards.placementPath, to: "a").run()
        store.follower.reload(force: true)
        #expect(
            try await store.write(in: list) { try $0.insertCalls([makeCall("c-3")], into: list) }.versions == [list: 3])
        #expect(try await store.read(in: list) { try $0.calls(in: list, at: 3).map(\.id) }.count == 3)
    }

    /// A table a migration adds with a `list_id` or `list` column holds rows of lists: a move that
    /// did not copy it would lose them. Whoever adds one must name it in `ListTable.all`.
    @Test func theMoverCopiesEveryTableThatHoldsRowsOfLists() throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        store.close()
        let connection = try PGConnection(uri: shards.uris[0])
        let found = try connection.query(
            """
            SELECT DISTINCT table_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND (column_name IN ('list_id', 'list') OR table_name = 'lists')
            """)
        let tables = Set((0..<found.count).map { found.string($0, 0) })
        #expect(tables == Set(ListTable.all.map(\.name)))
    }

    @Test func theDatabaseFindsABucketsListsByTheSameHashAsBucketOf() throws {
        let shards = try ShardDatabases(count: 1)
        let connection = try PGConnection(uri: shards.uris[0])
        let names = (0..<200).map { "list-\($0)" } + ["é-ü", "a.b_c-D"]
        let found = try connection.query(
            "SELECT \(BucketCopier.bucketOfName) FROM unnest($1::text[]) WITH ORDINALITY AS u(name, n) ORDER BY n",
            PGArray(names))
        #expect(try (0..<found.count).map { try found.int($0, 0) } == names.map(Bucket.of))
    }

    @Test func aPlacementWithABucketMovedReadsBackEqual() throws {
        let shards = try ShardDatabases()
        let placement = try PlacementFollower(path: shards.placementPath).placement
        let moved = try placement.moving(bucket: 7, to: "b")
        #expect(moved.shardIndex(ofBucket: 7) == 1 && moved.shardIndex(ofBucket: 8) == 0)
        #expect(try Placement.parse(moved.fileBytes) == moved)
        #expect(moved.ranges.count == 4)
        #expect(throws: PlacementError.self) { try placement.moving(bucket: 7, to: "c") }
    }
}
