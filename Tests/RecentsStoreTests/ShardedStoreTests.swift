import Foundation
import RecentsCore
import SystemSupport
import Testing

@testable import RecentsStore

/// Lists on two PostgreSQL shards (two databases of the test server): each list on its shard,
/// one epoch for all, a body that reaches the other shard refused whole, one shard away.
@Suite(.enabled(if: Backend.available.contains(.postgresql))) struct ShardedStoreTests {
    @Test func eachListLivesOnItsShardAndEveryShardServesTheFirstShardsEpoch() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        let (onA, onB) = (ShardDatabases.list(on: 0, "a"), ShardDatabases.list(on: 1, "b"))
        let first = try await store.write(in: onA) { try $0.insertCalls([makeCall("c-1")], into: onA) }
        let second = try await store.write(in: onB) { try $0.insertCalls([makeCall("c-2")], into: onB) }
        #expect(first.versions == [onA: 1] && second.versions == [onB: 1])
        #expect(store.stores.allSatisfy { $0.epoch == store.epoch })
        // Each database holds only its own list.
        #expect(try await store.stores[0].read { try ($0.listInfo(onA).version, $0.listInfo(onB).version) } == (1, 0))
        #expect(try await store.stores[1].read { try ($0.listInfo(onA).version, $0.listInfo(onB).version) } == (0, 1))
        #expect(try await store.read(in: onB) { try $0.call("c-2", in: onB)?.id } == "c-2")
        #expect(store.metrics.versionsWritten == 2)
        #expect(store.shards.map(\.metrics.versionsWritten) == [1, 1])
    }

    @Test func aWriteThatReachesAListOnTheOtherShardFailsAndWritesNothing() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        let (onA, onB) = (ShardDatabases.list(on: 0, "a"), ShardDatabases.list(on: 1, "b"))
        await #expect(throws: CrossShardError(list: onA, other: onB)) {
            try await store.write(in: onA) { tx in
                try tx.insertCalls([makeCall("c-1", peer: onB)], into: onA)
                _ = try tx.deleteCalls(ids: ["c-1"], from: onB)
            }
        }
        await #expect(throws: CrossShardError(list: onA, other: onB)) {
            try await store.read(in: onA) { try $0.listInfo(onB) }
        }
        #expect(try await store.read(in: onA) { try $0.listInfo(onA).version } == 0)
    }

    @Test func theIdsOnlyReadGoesToTheListsShardAndIsRefusedElsewhere() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        let (onA, onB) = (ShardDatabases.list(on: 0, "a"), ShardDatabases.list(on: 1, "b"))
        _ = try await store.write(in: onB) { try $0.insertCalls([makeCall("c-1"), makeCall("c-2")], into: onB) }
        #expect(try await store.read(in: onB) { try $0.callIds(in: onB, at: 1) } == ["c-2", "c-1"])
        await #expect(throws: CrossShardError(list: onA, other: onB)) {
            try await store.read(in: onA) { try $0.callIds(in: onB, at: 1) }
        }
    }

    @Test func anEmptyShardTakesTheFleetsEpochAndOneWithListsUnderAnotherIsRefused() async throws {
        let shards = try ShardDatabases()
        // Shard b opened alone first: an epoch of its own, and no list.
        let alone = try PGListStore.open(StoreConfiguration(path: shards.uris[1]))
        let ownEpoch = alone.epoch
        alone.close()
        let store = try shards.open()
        #expect(store.epoch != ownEpoch && store.stores[1].epoch == store.epoch)
        store.close()

        let other = try ShardDatabases()
        let written = try PGListStore.open(StoreConfiguration(path: other.uris[1]))
        _ = try await written.write { try $0.insertCalls([makeCall("c-1")], into: "alice") }
        written.close()
        #expect {
            try other.open()
        } throws: { error in
            "\(error)".contains("shard 'b'") && "\(error)".contains("holds lists under epoch")
        }
    }

    @Test func withOneShardAwayHealthIsDegradedAndTheOtherShardsListsWork() async throws {
        let shards = try ShardDatabases()
        let store = try shards.open()
        defer { store.close() }
        let onA = ShardDatabases.list(on: 0, "a")
        try shards.setAway(1, true)
        defer { try? shards.setAway(1, false) }
        let health = try await withCheckedThrowingContinuation { continuation in
            store.probeHealth { continuation.resume(with: $0) }
        }
        guard case .degraded(let reason) = health else { Issue.record("not degraded: \(health)"); return }
        #expect(reason.contains("shard 'b'"))
        #expect(
            try await store.write(in: onA) { try $0.insertCalls([makeCall("c-1")], into: onA) }.versions == [onA: 1])
    }
}

/// Fresh databases on the test server as the shards of one placement (buckets below 2048 on
/// the first, the rest on the second), with the placement file; dropped on deinit.
final class ShardDatabases {
    let uris: [String]
    let placementPath: String
    private let names: [String]
    private let admin: PGConnection

    init(count: Int = 2) throws {
        let url = try #require(Backend.postgresURL)
        admin = try PGConnection(uri: url)
        // Generated from hex digits only: identifiers cannot be bound as values.
        names = (0..<count).map { _ in Backend.newSchemaName() }
        for name in names { try admin.execute("CREATE DATABASE \(name)") }
        uris = names.map { Self.uri(url, database: $0) }
        placementPath = FileManager.default.temporaryDirectory.appendingPathComponent("placement-\(names[0]).json").path
        let shards = zip(["a", "b", "c", "d"], uris).map { #""\#($0)": "\#($1)""# }.joined(separator: ", ")
        let step = Bucket.count / count
        let ranges = (0..<count).map { index in
            let last = index == count - 1 ? Bucket.count - 1 : (index + 1) * step - 1
            return #"{"from": \#(index * step), "to": \#(last), "shard": "\#(["a", "b", "c", "d"][index])"}"#
        }
        try Data(#"{"shards": {\#(shards)}, "buckets": [\#(ranges.joined(separator: ", "))]}"#.utf8).write(
            to: URL(fileURLWithPath: placementPath))
    }

    deinit {
        for name in names { _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        try? FileManager.default.removeItem(atPath: placementPath)
    }

    /// A sharded store over these databases.
    func open() throws -> ShardedListStore {
        let follower = try PlacementFollower(path: placementPath)
        return ShardedListStore(
            follower: follower,
            stores: try ShardedListStore.openShards(
                follower.placement, StoreConfiguration(path: ""), logger: Logger(level: .error)))
    }

    /// Takes shard `index`'s database away (its sessions ended, new ones refused), or back.
    func setAway(_ index: Int, _ away: Bool) throws {
        try admin.execute("ALTER DATABASE \(names[index]) WITH ALLOW_CONNECTIONS \(!away)")
        if away {
            try admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(names[index])'")
        }
    }

    /// A list name placed on shard `index` of two (first found: `prefix-0`, `prefix-1`, …).
    static func list(on index: Int, _ prefix: String) -> String {
        (0..<10_000).lazy.map { "\(prefix)-\($0)" }.first { (Bucket.of($0) < Bucket.count / 2) == (index == 0) }
            ?? prefix
    }

    /// `url` naming `database` instead of its own (the path after the host, before any query).
    static func uri(_ url: String, database: String) -> String {
        let (base, query) = url.firstIndex(of: "?").map { (url[..<$0], url[$0...]) } ?? (url[...], ""[...])
        guard let slash = base.lastIndex(of: "/"), base[..<slash].hasSuffix("/") == false else {
            return "\(base)/\(database)\(query)"
        }
        return "\(base[..<slash])/\(database)\(query)"
    }
}
