import RecentsCore
import RecentsTestSupport
import Testing

@testable import RecentsStore

/// The stored missed-calls badge where a batch holds several requests or two instances write one
/// list: each version's count equals the walk over that version's calls.
@Suite struct StoredUnseenMissedTests {
    /// A forget zeroes the count; a missed call posted after it in the same request counts from
    /// there, at that version and at the next one (which reads the same version row).
    @Test(arguments: Backend.available) func aForgetThenAPostInOneRequestCountsFromZero(backend: Backend)
        async throws
    {
        try await withStore(backend) { store in
            _ = try await store.write {
                try $0.insertCalls((0..<3).map { makeCall("old\($0)", timestamp: 10, missed: true) }, into: "a")
            }
            let forget = try await store.write { transaction in
                try transaction.forgetList("a")
                try transaction.insertCalls([makeCall("new", timestamp: 20, missed: true)], into: "a")
            }
            _ = try await store.write { try $0.insertCalls([makeCall("plain", timestamp: 30)], into: "a") }
            let version = try #require(forget.versions["a"])
            let badges = try await store.read { transaction in
                try [version, version + 1].map { try transaction.unseenMissed(in: "a", at: $0) }
            }
            #expect(badges == [1, 1])
            try await expectStoredCountsMatchTheWalk(store, lists: ["a"])
        }
    }

    /// Posts, deletes, seen marks and the odd forget from many tasks at once over two lists, so
    /// batches hold several requests; on PostgreSQL from two instances (stores) of one database.
    @Test(arguments: Backend.available) func concurrentWritesKeepTheCountOfEveryVersion(backend: Backend)
        async throws
    {
        try await withInstances(backend) { stores in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    let store = stores[task % stores.count]
                    group.addTask {
                        for index in 0..<30 {
                            let list = index % 3 == 0 ? "b" : "a"
                            _ = try await store.write { try Self.step(task, index, list, $0) }
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await expectStoredCountsMatchTheWalk(stores[0], lists: ["a", "b"])
        }
    }

    /// One SQLite store, or two PostgreSQL stores (instances) on one database, two writers each.
    private func withInstances(_ backend: Backend, _ body: ([any ListStore]) async throws -> Void) async throws {
        guard case .postgresql = backend else {
            try await withStore(backend) { try await body([$0]) }
            return
        }
        try await withPostgresSchema { uri in
            let open = {
                try PGListStore.open(
                    StoreConfiguration(path: uri, writers: 2),
                    migrator: PGMigrator(migrations: Backend.postgresMigrations))
            }
            let first = try open()
            defer { first.close() }
            let second = try open()
            defer { second.close() }
            try await body([first, second])
        }
    }

    /// `recents backup` copies the counts with the pages: the restored copy answers the same
    /// badge at every version.
    @Test func aBackupCarriesTheCounts() async throws {
        try await withTemporaryDirectory { directory in
            let live = directory + "/live.sqlite"
            let copy = directory + "/copy.sqlite"
            let store = try SQLiteListStore.open(StoreConfiguration(path: live))
            for index in 0..<6 {
                _ = try await store.write { try Self.step(0, index, "a", $0) }
            }
            let before = try await store.read { transaction in
                try (0...6).map { try transaction.unseenMissed(in: "a", at: $0) }
            }
            try SQLiteStore.backup(StoreConfiguration(path: live), to: copy)
            store.close()
            let restored = try SQLiteListStore.open(StoreConfiguration(path: copy))
            defer { restored.close() }
            let after = try await restored.read { transaction in
                try (0...6).map { try transaction.unseenMissed(in: "a", at: $0) }
            }
            #expect(after == before && before.contains { $0 > 0 })
            try await expectStoredCountsMatchTheWalk(restored, lists: ["a"])
        }
    }

    /// One write of task `task`: which kind by `index`, so every kind meets every other in a batch.
    private static func step(_ task: Int, _ index: Int, _ list: String, _ transaction: any StoreWriter) throws {
        let timestamp = Int64((task * 7 + index * 3) % 20 + 1)
        switch index % 6 {
        case 0, 1:
            try transaction.insertCalls(
                [
                    makeCall("m\(task)-\(index)", timestamp: timestamp, missed: true),
                    makeCall("h\(task)-\(index)", timestamp: timestamp),
                ], into: list)
        case 2:
            _ = try transaction.deleteCalls(ids: ["m\(task)-\(index - 2)", "m\(task)-\(index - 1)"], from: list)
        case 3:
            var state = try transaction.listInfo(list).state
            state.seenThrough = max(state.seenThrough, timestamp / 2)
            try transaction.setState(state, of: list)
        case 4 where task == 0 && index == 28:
            try transaction.forgetList(list)
        default:
            try transaction.insertCalls([makeCall("n\(task)-\(index)", timestamp: 25, missed: true)], into: list)
        }
    }
}

/// The stored badge of every retained version of `lists` equals the walk over that version's
/// missed calls with that version's mark, and no version falls back to the walk.
func expectStoredCountsMatchTheWalk(_ store: any ListStore, lists: [String]) async throws {
    for list in lists {
        let (stored, walked) = try await store.read { transaction in
            let info = try transaction.listInfo(list)
            var stored: [Int] = []
            var walked: [Int] = []
            for version in info.oldestRetainedVersion...info.version {
                stored.append(try transaction.unseenMissed(in: list, at: version))
                let mark = try #require(try transaction.state(of: list, at: version)).seenThrough
                walked.append(
                    UnseenMissed.count(
                        missedCalls: try transaction.calls(in: list, at: version, filter: .missed), seenThrough: mark))
            }
            return (stored, walked)
        }
        #expect(stored == walked, "\(list)")
    }
    #expect(try await queryInts(store, "SELECT count(*) FROM list_versions WHERE unseen_missed IS NULL") == [0])
}
