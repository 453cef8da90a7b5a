import RecentsCore
import Testing

@testable import RecentsStore

/// A database written by an older binary keeps its data when this one migrates it.
@Suite struct UpgradeTests {
    @Test func aDatabaseFromTheFirstTwoMigrationsUpgradesAndKeepsItsData() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/old.sqlite"
            // What the binary of migrations 0001–0002 wrote: "alice" forgotten at version 3,
            // then a call at 4 and editing at 5; "bob" never forgotten.
            let old = try SQLiteConnection(path: path)
            let shipped = Migrator.embedded.filter { $0.version <= 2 }
            #expect(shipped.count == 2)
            _ = try Migrator(migrations: shipped).migrate(old)
            try old.execute(
                """
                INSERT INTO meta (key, value) VALUES ('epoch', 'oldepoch');
                INSERT INTO lists (id, name, version, oldest_version, pruned_below, editing, revealed_row_id, call_count)
                VALUES (1, 'alice', 5, 3, 0, 1, NULL, 1), (2, 'bob', 1, 0, 0, 0, NULL, 1);
                INSERT INTO list_versions (list_id, version, editing, revealed_row_id, created_at)
                VALUES (1, 3, 0, NULL, 0), (1, 5, 1, NULL, 0), (2, 0, 0, NULL, 0);
                INSERT INTO calls (list_id, call_id, peer_id, peer_name, direction, end_reason, video, duration,
                                   timestamp, missed, created_version)
                VALUES (1, 'a1', 'bob', 'Bob', 'incoming', 'missed', 0, 0, 1700000000, 1, 4),
                       (2, 'b1', 'alice', 'Alice', 'outgoing', 'hangup', 1, 60, 1700000001, 0, 1);
                """)

            let store = try SQLiteListStore.open(StoreConfiguration(path: path))
            defer { store.close() }
            #expect(store.epoch == "oldepoch")
            let (alice, calls, retained, stateAt3) = try await store.read { transaction in
                (
                    try transaction.listInfo("alice"), Array(try transaction.calls(in: "alice", at: 5)),
                    try (0...5).map { try transaction.isRetained($0, in: "alice") },
                    try transaction.state(of: "alice", at: 3)
                )
            }
            #expect(
                alice
                    == ListInfo(
                        name: "alice", version: 5, oldestRetainedVersion: 3, state: ListState(editing: true),
                        callCount: 1, exists: true))
            #expect(calls.map(\.id) == ["a1"])
            #expect(calls.first?.isMissed == true)
            #expect(retained == [false, false, false, true, true, true])
            #expect(stateAt3 == ListState())
            let bob = try await store.read { try $0.call("b1", in: "bob") }
            #expect(bob?.duration == 60 && bob?.video == true)

            // The renamed column is the one the store now reads and writes.
            #expect(
                try await queryInts(
                    store, "SELECT count(*) FROM pragma_table_info('lists') WHERE name = 'forgotten_below'") == [1])
            #expect(
                try await queryInts(
                    store, "SELECT count(*) FROM pragma_table_info('lists') WHERE name = 'oldest_version'") == [0])
            let forget = try await store.write { try $0.forgetList("bob") }
            #expect(forget.versions == ["bob": 2])
            #expect(try await store.read { try $0.listInfo("bob").oldestRetainedVersion } == 2)
            #expect(try await queryInts(store, "SELECT forgotten_below FROM lists ORDER BY id") == [3, 2])
        }
    }

    @Test func migrationTimestampsAreUTCInISO8601() {
        #expect(Migrator.timestamp(secondsSinceEpoch: 0) == "1970-01-01T00:00:00Z")
        #expect(Migrator.timestamp(secondsSinceEpoch: 1_795_941_001) == "2026-11-29T08:30:01Z")
    }
}
