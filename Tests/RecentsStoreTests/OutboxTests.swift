import RecentsCore
import Synchronization
import SystemSupport
import Testing

@testable import RecentsStore

/// "Delete for everyone" across two shards (two databases of the test server): the caller's
/// request commits with an outbox entry, the drainer applies it on the peer's shard once, with
/// the same rule as within one database, and an entry waits while the peer's shard is away.
@Suite(.enabled(if: Backend.available.contains(.postgresql))) struct OutboxTests {
    let onA = ShardDatabases.list(on: 0, "a")
    let onB = ShardDatabases.list(on: 1, "b")

    @Test func aDeleteAndAClearForEveryoneLandOnThePeersShardWithOneVersionEach() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        let peerVersions = PeerVersions(store, list: onB)
        try await post(["c-1", "c-2", "c-3"], store)
        #expect(try await peerVersions.version() == 1)

        let deleted = try await store.write(in: onA) { [onA, onB] tx in
            _ = try CallDeletion.delete(["c-1"], from: onA, tx: tx)
            try tx.deletePeerCopies(["c-1"], peer: onB, caller: onA)
        }
        // The reply is the caller's alone: the peer changes after the commit, on its shard.
        #expect(deleted.versions == [onA: 2])
        #expect(peerVersions.wait(for: 2))
        #expect(try await peerIds(store, at: 2) == ["c-3", "c-2"])

        _ = try await store.write(in: onA) { [onA, onB] tx in
            try tx.clearCalls(of: onA)
            try tx.deletePeerCopies(["c-2", "c-3"], peer: onB, caller: onA)
        }
        #expect(peerVersions.wait(for: 3))
        #expect(try await peerIds(store, at: nil).isEmpty)
        #expect(try await peerVersions.version() == 3)
        try store.drainer.drainNow()
        #expect(store.shards.map(\.outboxPending) == [0, 0])
    }

    @Test func aRequestThatFailsAfterItsEntryLeavesNoEntry() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        store.drainer.stop()
        try await post(["c-1"], store)
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await store.write(in: onA) { [onA, onB] tx in
                // The entry first: nothing before it opened the request's savepoint.
                try tx.deletePeerCopies(["c-1"], peer: onB, caller: onA)
                _ = try CallDeletion.delete(["c-1"], from: onA, tx: tx)
                throw Refused()
            }
        }
        #expect(try PGOutbox.backlog(on: try PGConnection(uri: shards.uris[0])).pending == 0)
        let list = onA
        let version = try await store.read(in: list) { tx -> Int64 in try tx.listInfo(list).version }
        #expect(version == 1)
    }

    @Test func aCopyThatDoesNotNameTheCallerAsItsPeerStays() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        let peerVersions = PeerVersions(store, list: onB)
        try await post(["c-1"], store)
        // The peer's own call that carries the caller's id, with someone else as its peer.
        _ = try await store.write(in: onB) { [onB] tx in
            try tx.insertCalls([makeCall("c-2", timestamp: 1_700_000_100, peer: "mallory")], into: onB)
        }
        _ = try await store.write(in: onA) { [onA, onB] tx in
            try tx.deletePeerCopies(["c-1", "c-2"], peer: onB, caller: onA)
        }
        #expect(peerVersions.wait(for: 3))
        #expect(try await peerIds(store, at: 3) == ["c-2"])
    }

    @Test func anEntryAppliedBeforeACrashAppliesNothingWhenDrainedAgain() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        let peerVersions = PeerVersions(store, list: onB)
        // Only this test drains: the crash falls between its apply and the entry's deletion.
        store.drainer.stop()
        try await post(["c-1"], store)
        _ = try await store.write(in: onA) { [onA, onB] tx in
            try tx.deletePeerCopies(["c-1"], peer: onB, caller: onA)
        }
        let entries = try PGOutbox.entries(on: try PGConnection(uri: shards.uris[0]), limit: 10)
        let entry = try #require(entries.first)
        #expect(entries.count == 1 && entry.peer == onB && entry.callIds == ["c-1"])
        let applied = try await store.stores[1].write { tx in try OutboxDrainer.apply(entry, tx) }
        #expect(applied.versions == [onB: 2])
        // The peer gets a call of the same id again before the entry is drained once more.
        _ = try await store.write(in: onB) { [onA, onB] tx in
            try tx.insertCalls([makeCall("c-1", timestamp: 1_700_000_200, peer: onA)], into: onB)
        }
        try store.drainer.drainNow()
        #expect(try await peerVersions.version() == 3)
        #expect(try await peerIds(store, at: 3) == ["c-1"])
        #expect(try PGOutbox.backlog(on: try PGConnection(uri: shards.uris[0])).pending == 0)
    }

    @Test func anEntryReplayedAfterItsPeersBucketMovedAppliesNothing() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        store.drainer.stop()
        try await post(["c-1"], store)
        _ = try await store.write(in: onA) { [onA, onB] tx in
            try tx.deletePeerCopies(["c-1"], peer: onB, caller: onA)
        }
        let entry = try #require(try PGOutbox.entries(on: try PGConnection(uri: shards.uris[0]), limit: 10).first)
        _ = try await store.stores[1].write { tx in try OutboxDrainer.apply(entry, tx) }
        // The peer's bucket moves to the caller's shard, taking the tokens applied to it along.
        _ = try BucketMover(bucket: Bucket.of(onB), placement: shards.placementPath, to: "a").run()
        #expect(store.follower.reload(force: true))
        #expect(store.follower.shardIndex(of: onB) == 0)
        // A call of the same id comes back; then the entry, never deleted (a crash), is drained again.
        _ = try await store.write(in: onB) { [onA, onB] tx in
            try tx.insertCalls([makeCall("c-1", timestamp: 1_700_000_200, peer: onA)], into: onB)
        }
        try store.drainer.drainNow()
        #expect(try await peerIds(store, at: nil) == ["c-1"])
        #expect(try PGOutbox.backlog(on: try PGConnection(uri: shards.uris[0])).pending == 0)
    }

    @Test func withThePeersShardAwayTheCallerWritesAndTheEntryLandsOnceItIsBack() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        let peerVersions = PeerVersions(store, list: onB)
        try await post(["c-1"], store)
        try shards.setAway(1, true)
        let deleted = try await store.write(in: onA) { [onA, onB] tx in
            _ = try CallDeletion.delete(["c-1"], from: onA, tx: tx)
            try tx.deletePeerCopies(["c-1"], peer: onB, caller: onA)
        }
        #expect(deleted.versions == [onA: 2])
        try store.drainer.drainNow([0])
        #expect(store.shards[0].outboxPending == 1)
        try shards.setAway(1, false)
        #expect(peerVersions.wait(for: 2))
        #expect(try await peerIds(store, at: nil).isEmpty)
    }

    /// The ids of the peer's list at `version` (nil: its current one).
    private func peerIds(_ store: ShardedListStore, at version: Int64?) async throws -> [String] {
        let list = onB
        return try await store.read(in: list) { tx -> [String] in
            try tx.calls(in: list, at: try version ?? tx.listInfo(list).version).map(\.id)
        }
    }

    /// Posts `ids` to both lists, each call naming the other list as its peer.
    private func post(_ ids: [String], _ store: ShardedListStore) async throws {
        for (list, peer) in [(onA, onB), (onB, onA)] {
            let calls = ids.enumerated().map { makeCall($1, timestamp: 1_700_000_000 + Int64($0), peer: peer) }
            _ = try await store.write(in: list) { tx in try tx.insertCalls(calls, into: list) }
        }
    }
}

/// The versions of one list the store reports committed, waited for without polling.
private final class PeerVersions: Sendable {
    private let store: ShardedListStore
    private let list: String
    private let seen = Mutex<Int64>(0)
    private let condition = ThreadCondition()

    init(_ store: ShardedListStore, list: String) {
        self.store = store
        self.list = list
        TestObserver.subscribe(store) { [self] versions in
            guard let version = versions[list] else { return }
            condition.withLock {
                seen.withLock { $0 = max($0, version) }
                condition.broadcast()
            }
        }
    }

    /// Whether the list reached `version` within 30 s (a bound against a hang, not a measure).
    func wait(for version: Int64) -> Bool {
        let deadline = SystemClock.monotonicNanoseconds() + 30_000_000_000
        return condition.withLock {
            while seen.withLock({ $0 }) < version {
                if !condition.wait(untilMonotonicNanoseconds: deadline) { return seen.withLock { $0 } >= version }
            }
            return true
        }
    }

    /// The list's version in its shard's database now.
    func version() async throws -> Int64 {
        try await store.read(in: list) { [list] tx in try tx.listInfo(list).version }
    }
}
