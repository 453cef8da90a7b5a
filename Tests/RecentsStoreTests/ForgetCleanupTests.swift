import RecentsCore
import Testing

@testable import RecentsStore

/// A forget is O(1) in its request (issue 42): its calls are hidden at once by the new forget
/// floor and removed later by the pruner in small chunks (`lists.purge_below`), which picks the
/// work up again after a crash.
@Suite struct ForgetCleanupTests {
    @Test(arguments: Backend.available) func aForgetHidesItsCallsAtOnceAndFreesTheirIds(backend: Backend)
        async throws
    {
        try await withStore(backend) { store in
            let calls = [makeCall("a"), makeCall("b", timestamp: 1_700_000_100, missed: true), makeCall("c")]
            _ = try await store.write { try $0.insertCalls(calls, into: "alice") }
            _ = try await store.write { try $0.insertCalls([makeCall("a", peer: "alice")], into: "bob") }
            // One request: the leftovers are still stored (pruning runs after the requests), so
            // posting "a" again meets the old "a" in the live-id unique index.
            let forget = try await store.write { transaction in
                try transaction.forgetList("alice")
                let hidden = try transaction.call("a", in: "alice") == nil
                try transaction.insertCalls([makeCall("a", timestamp: 1_700_000_200)], into: "alice")
                return hidden
            }
            #expect(forget.value)
            #expect(forget.versions == ["alice": 2])
            let (info, all, missed, b) = try await store.read { transaction in
                (
                    try transaction.listInfo("alice"), Array(try transaction.calls(in: "alice", at: 2)),
                    Array(try transaction.calls(in: "alice", at: 2, filter: .missed)),
                    try transaction.call("b", in: "alice")
                )
            }
            #expect(info.callCount == 1)
            #expect(all.map(\.id) == ["a"])
            #expect(all.first?.timestamp == 1_700_000_200)
            #expect(missed.isEmpty)
            #expect(b == nil)
            // A leftover is not live: deleting it changes nothing and makes no version.
            let noop = try await store.write { try $0.deleteCalls(ids: ["b", "c"], from: "alice") }
            #expect(noop.value.isEmpty)
            #expect(noop.versions.isEmpty)
            try await store.pruneNow()
            let alice = try await store.read { try $0.listInfo("alice") }
            #expect(alice.callCount == 1)
            #expect(try await queryInts(store, "SELECT count(*) FROM calls WHERE list_id = 1") == [1])
            #expect(try await queryInts(store, "SELECT purge_below FROM lists ORDER BY id") == [0, 0])
            #expect(try await store.read { try $0.call("a", in: "bob") } != nil)
        }
    }

    @Test(arguments: Backend.available) func thePrunerRemovesLeftoversInChunksAndResumesAfterACrash(
        backend: Backend
    ) async throws {
        try await withDatabase(backend) { database in
            // What a kill -9 in the middle of a cleanup leaves: 250 leftovers below the forget
            // at 10, and "new" posted at 11.
            try database.execute(
                """
                INSERT INTO lists (name, version, forgotten_below, pruned_below, editing, revealed_row_id, call_count,
                                   purge_below)
                VALUES ('alice', 11, 10, 10, \(database.no), NULL, 1, 10);
                INSERT INTO list_versions (list_id, version, editing, revealed_row_id, created_at)
                VALUES (1, 10, \(database.no), NULL, 0);
                """)
            try database.insertOldCallsAndNew()
            // A chunk removes at most its budget, and the mark stays until none is left.
            #expect(try database.pruneStep(budget: 100) == 100)
            #expect(try database.ints("SELECT count(*) FROM calls") == [151])
            #expect(try database.ints("SELECT purge_below FROM lists") == [10])

            // Reopened: reads never see a leftover, and the pruner finishes the cleanup.
            try await database.withStore { store in
                let (info, calls) = try await store.read { transaction in
                    (try transaction.listInfo("alice"), Array(try transaction.calls(in: "alice", at: 11)))
                }
                #expect(info.callCount == 1)
                #expect(calls.map(\.id) == ["new"])
                try await store.pruneNow()
                #expect(try await queryInts(store, "SELECT count(*) FROM calls") == [1])
                #expect(try await queryInts(store, "SELECT purge_below FROM lists") == [0])
            }
        }
    }
}
