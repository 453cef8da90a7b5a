import RecentsCore
import RecentsTestSupport
import Testing

@testable import RecentsStore

/// A database written before the badge was stored (SQLite 0008, PostgreSQL 0007) gets each list's
/// count from the migration, and its older versions, which carry no stored count, are counted.
@Suite struct UnseenMissedUpgradeTests {
    /// What a binary of the previous migration wrote: "alice" at version 4, seen through 100 since
    /// version 3, a missed call deleted at 2; "bob" forgotten at 2 with a leftover missed call.
    static func oldRows(_ backend: Backend) -> String {
        let identity = backend == .postgresql ? "OVERRIDING SYSTEM VALUE" : ""
        return """
            INSERT INTO lists (id, name, version, forgotten_below, pruned_below, editing, revealed_row_id, call_count,
                               seen_through, purge_below) \(identity)
            VALUES (1, 'alice', 4, 0, 0, false, NULL, 4, 100, 0), (2, 'bob', 3, 2, 0, false, NULL, 1, 0, 2);
            INSERT INTO list_versions (list_id, version, editing, revealed_row_id, seen_through, created_at)
            VALUES (1, 0, false, NULL, 0, 0), (1, 3, false, NULL, 100, 0), (2, 2, false, NULL, 0, 0);
            INSERT INTO calls (list_id, call_id, peer_id, peer_name, direction, end_reason, video, duration,
                               timestamp, missed, created_version, deleted_version)
            VALUES (1, 'm1', 'p', 'P', 'incoming', 'missed', false, 0, 50, true, 1, NULL),
                   (1, 'm2', 'p', 'P', 'incoming', 'missed', false, 0, 150, true, 2, NULL),
                   (1, 'm3', 'p', 'P', 'incoming', 'missed', false, 0, 200, true, 4, NULL),
                   (1, 'h1', 'p', 'P', 'outgoing', 'hangup', false, 9, 300, false, 1, NULL),
                   (1, 'm4', 'p', 'P', 'incoming', 'missed', false, 0, 250, true, 1, 2),
                   (2, 'left', 'p', 'P', 'incoming', 'missed', false, 0, 500, true, 1, NULL),
                   (2, 'b1', 'p', 'P', 'incoming', 'missed', false, 0, 600, true, 3, NULL);
            """
    }

    @Test(arguments: Backend.available) func theMigrationCountsEachListAndOlderVersionsAreCounted(backend: Backend)
        async throws
    {
        try await withOldStore(backend) { store in
            #expect(try await queryInts(store, "SELECT unseen_missed FROM lists ORDER BY id") == [2, 1])
            // Versions 0...2 read rows without a count: counted. 3 too (its row predates the count);
            // 4 is the current version, read from lists and from the migration's row.
            #expect(try await badges(store, "alice", 0...4) == [0, 2, 2, 1, 2])
            #expect(try await badges(store, "bob", 2...3) == [0, 1])
            #expect(
                try await queryInts(
                    store, "SELECT version FROM list_versions WHERE unseen_missed IS NOT NULL ORDER BY 1")
                    == [3, 4])

            _ = try await store.write {
                try $0.insertCalls([makeCall("m5", timestamp: 400, missed: true)], into: "alice")
            }
            _ = try await store.write { try $0.setState(ListState(seenThrough: 160), of: "alice") }
            _ = try await store.write { try $0.deleteCalls(ids: ["b1"], from: "bob") }
            #expect(try await badges(store, "alice", 0...6) == [0, 2, 2, 1, 2, 3, 2])
            #expect(try await badges(store, "bob", 2...4) == [0, 1, 0])
        }
    }

    /// The badges of `list` at `versions`.
    private func badges(_ store: any ListStore, _ list: String, _ versions: ClosedRange<Int64>) async throws -> [Int] {
        try await store.read { transaction in try versions.map { try transaction.unseenMissed(in: list, at: $0) } }
    }

    /// A store opened (and so migrated) on a database of `backend` that the previous migrations
    /// made and `oldRows` filled.
    private func withOldStore(_ backend: Backend, _ body: (any ListStore) async throws -> Void) async throws {
        switch backend {
        case .sqlite:
            try await withTemporaryDirectory { directory in
                let path = directory + "/old.sqlite"
                let old = try SQLiteConnection(path: path)
                _ = try Migrator(migrations: Migrator.embedded.filter { $0.version <= 7 }).migrate(old)
                try old.execute(Self.oldRows(backend))
                let store = try SQLiteListStore.open(StoreConfiguration(path: path))
                defer { store.close() }
                try await body(store)
            }
        case .postgresql:
            try await withPostgresSchema { uri in
                let old = try PGConnection(uri: uri)
                _ = try PGMigrator(migrations: Backend.postgresMigrations.filter { $0.version <= 6 }).migrate(old)
                try old.execute(Self.oldRows(backend))
                let store = try PGListStore.open(
                    StoreConfiguration(path: uri), migrator: PGMigrator(migrations: Backend.postgresMigrations))
                defer { store.close() }
                try await body(store)
            }
        }
    }
}
