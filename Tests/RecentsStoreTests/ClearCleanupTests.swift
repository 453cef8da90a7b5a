import RecentsCore
import Testing

@testable import RecentsStore

/// A clear is O(1) in its request (issue 42): at its version C every call created below C is
/// hidden at once, versions before C still show them, and the pruner marks them deleted at C
/// later in small chunks (`list_clears`), after which reads are the same as before.
@Suite struct ClearCleanupTests {
    @Test(arguments: Backend.available) func aClearHidesItsCallsAtOnceAndOlderVersionsStillSeeThem(backend: Backend)
        async throws
    {
        try await withStore(backend) { store in
            let calls = [makeCall("a"), makeCall("b", timestamp: 1_700_000_100, missed: true), makeCall("c")]
            _ = try await store.write { try $0.insertCalls(calls, into: "alice") }
            let clear = try await store.write { try $0.clearCalls(of: "alice") }
            #expect(clear.versions == ["alice": 2])
            let before = try await readAll(store, "alice", at: [1, 2])
            #expect(before.info.callCount == 0)
            #expect(before.calls[1] == ["b", "c", "a"])
            #expect(before.missed[1] == ["b"])
            #expect(before.calls[2] == [])
            #expect(before.missed[2] == [])
            #expect(before.lookups == [nil, nil, nil])
            // A hidden call is not live: deleting it changes nothing and makes no version.
            let noop = try await store.write { try $0.deleteCalls(ids: ["a", "b"], from: "alice") }
            #expect(noop.value.isEmpty)
            #expect(noop.versions.isEmpty)
            // Clearing an empty list makes no version either.
            #expect(try await store.write { try $0.clearCalls(of: "alice") }.versions.isEmpty)

            try await store.pruneNow()
            // Marked deleted at the clear's version; every read is the same as before.
            #expect(try await queryInts(store, "SELECT deleted_version FROM calls ORDER BY call_id") == [2, 2, 2])
            #expect(try await queryInts(store, "SELECT count(*) FROM list_clears") == [0])
            #expect(try await queryInts(store, "SELECT cleared_below FROM lists") == [0])
            let after = try await readAll(store, "alice", at: [1, 2])
            #expect(after.calls == before.calls)
            #expect(after.missed == before.missed)
            #expect(after.lookups == before.lookups)
        }
    }

    @Test(arguments: Backend.available) func twoClearsInARowMarkEachCallAtTheFirstClearAboveIt(backend: Backend)
        async throws
    {
        try await withStore(backend) { store in
            _ = try await store.write { try $0.insertCalls([makeCall("a"), makeCall("b")], into: "alice") }  // 1
            _ = try await store.write { try $0.clearCalls(of: "alice") }  // 2
            _ = try await store.write { try $0.insertCalls([makeCall("c"), makeCall("a")], into: "alice") }  // 3
            _ = try await store.write { try $0.clearCalls(of: "alice") }  // 4
            _ = try await store.write { try $0.insertCalls([makeCall("d")], into: "alice") }  // 5
            let expected: [Int64: [String]] = [1: ["b", "a"], 2: [], 3: ["c", "a"], 4: [], 5: ["d"]]
            let before = try await readAll(store, "alice", at: Array(1...5))
            #expect(before.calls == expected)
            try await store.pruneNow()
            #expect(
                try await queryInts(
                    store, "SELECT coalesce(deleted_version, 0) FROM calls ORDER BY call_id, created_version")
                    == [2, 4, 2, 4, 0])
            let after = try await readAll(store, "alice", at: Array(1...5))
            #expect(after.calls == expected)
        }
    }

    @Test(arguments: Backend.available) func aReposedIdMarksItsHiddenCallAndLeavesOlderVersionsAlone(
        backend: Backend
    ) async throws {
        try await withStore(backend) { store in
            _ = try await store.write { try $0.insertCalls([makeCall("a"), makeCall("b")], into: "alice") }  // 1
            _ = try await store.write { try $0.clearCalls(of: "alice") }  // 2
            // "a" is hidden but still holds its id in calls_live_id: posting it again marks it.
            _ = try await store.write {
                try $0.insertCalls([makeCall("a", timestamp: 1_700_000_500)], into: "alice")
            }  // 3
            let versionsOfA =
                "SELECT coalesce(deleted_version, 0) FROM calls WHERE call_id = 'a' ORDER BY created_version"
            #expect(try await queryInts(store, versionsOfA) == [2, 0])
            let read = try await readAll(store, "alice", at: [1, 2, 3])
            #expect(read.calls == [1: ["b", "a"], 2: [], 3: ["a"]])
            #expect(read.info.callCount == 1)
            #expect(read.lookups[0]?.timestamp == 1_700_000_500)
            try await store.pruneNow()
            #expect(try await readAll(store, "alice", at: [1, 2, 3]).calls == read.calls)
        }
    }

    /// With `twice`, the request clears again after posting between (HistoryTests found the second
    /// clear failing on the first one's `list_clears` row): both share the request's version.
    @Test(arguments: Backend.available, [false, true])
    func callsTheClearingRequestPostedGoWithTheRest(backend: Backend, twice: Bool) async throws {
        try await withStore(backend) { store in
            _ = try await store.write { try $0.insertCalls([makeCall("a")], into: "alice") }
            let clear = try await store.write { transaction in
                try transaction.insertCalls([makeCall("b")], into: "alice")
                try transaction.clearCalls(of: "alice")
                if twice {
                    try transaction.insertCalls([makeCall("d")], into: "alice")
                    try transaction.clearCalls(of: "alice")
                }
                try transaction.insertCalls([makeCall("c")], into: "alice")
                return try transaction.listInfo("alice").callCount
            }
            #expect(clear.value == 1)
            #expect(clear.versions == ["alice": 2])
            let read = try await readAll(store, "alice", at: [1, 2])
            #expect(read.calls == [1: ["a"], 2: ["c"]])
            try await store.pruneNow()
            #expect(try await readAll(store, "alice", at: [1, 2]).calls == read.calls)
        }
    }

    @Test(arguments: Backend.available) func aForgetAfterAClearTakesItsHiddenCallsAlong(backend: Backend)
        async throws
    {
        try await withStore(backend) { store in
            _ = try await store.write { try $0.insertCalls([makeCall("a"), makeCall("b")], into: "alice") }
            _ = try await store.write { try $0.clearCalls(of: "alice") }
            _ = try await store.write { try $0.forgetList("alice") }
            #expect(try await queryInts(store, "SELECT count(*) FROM list_clears") == [0])
            _ = try await store.write { try $0.insertCalls([makeCall("a")], into: "alice") }
            try await store.pruneNow()
            #expect(try await readAll(store, "alice", at: [4]).calls == [4: ["a"]])
            #expect(try await queryInts(store, "SELECT count(*) FROM calls") == [1])
        }
    }

    @Test(arguments: Backend.available) func thePrunerMarksHiddenCallsInChunksAndResumesAfterACrash(
        backend: Backend
    ) async throws {
        try await withDatabase(backend) { database in
            try insertTwoClearsNotMarked(database)
            // A chunk marks at most its budget, oldest clear first, and the clears wait until
            // none of their calls is left.
            #expect(try database.pruneStep(budget: 40) == 40)
            #expect(try database.ints("SELECT count(*) FROM calls WHERE deleted_version = 5") == [40])
            #expect(try database.ints("SELECT cleared_below FROM lists") == [10])
            #expect(try database.ints("SELECT version FROM list_clears ORDER BY version") == [5, 10])

            // Reopened: each version sees exactly the calls created at or above its clear, and
            // the pruner finishes the marking, each call at the first clear above it.
            try await database.withStore { store in
                let read = try await readAll(store, "alice", at: [4, 5, 9, 10, 11])
                #expect(read.info.callCount == 1)
                #expect(read.calls.mapValues(\.count) == [4: 112, 5: 28, 9: 138, 10: 0, 11: 1])
                try await store.pruneNow()
                #expect(
                    try await queryInts(
                        store,
                        "SELECT count(*) FROM calls GROUP BY deleted_version ORDER BY coalesce(deleted_version, 99)")
                        == [112, 138, 1])
                #expect(try await queryInts(store, "SELECT count(*) FROM list_clears") == [0])
                #expect(try await readAll(store, "alice", at: [4, 5, 9, 10, 11]).calls == read.calls)
            }
        }
    }

    /// The ids-only read (`callIds`, "Delete all"'s reply) hides what `calls` hides: the calls of
    /// a clear not marked yet, of one half marked, and of one marked.
    @Test(arguments: Backend.available) func theIdsOnlyReadHidesAClearsCallsMarkedOrNot(backend: Backend)
        async throws
    {
        try await withDatabase(backend) { database in
            try insertTwoClearsNotMarked(database)
            let versions: [Int64] = [4, 5, 9, 10, 11]
            let counts: [Int64: Int] = [4: 112, 5: 28, 9: 138, 10: 0, 11: 1]
            for budget in [0, 40, 1000] {
                if budget > 0 { _ = try database.pruneStep(budget: budget) }
                let (ids, calls) = try database.read { reader in
                    (
                        try versions.map { try reader.callIds(in: "alice", at: $0) },
                        try versions.map { try reader.calls(in: "alice", at: $0).map(\.id) }
                    )
                }
                #expect(ids == calls, "after marking \(budget)")
                #expect(Dictionary(uniqueKeysWithValues: zip(versions, ids.map(\.count))) == counts)
            }
        }
    }

    @Test(arguments: Backend.available) func aChunkMarksAtMostTheMarkingBudgetAndEndsThere(backend: Backend)
        async throws
    {
        try await withDatabase(backend) { database in
            try insertTwoClearsNotMarked(database)
            let budget = Pruner<SQLiteConnection>.markBudget
            #expect(budget < 112)
            // An idle chunk's budget is far larger, but marking `budget` calls ends it.
            #expect(try database.pruneStep(budget: 2000) == budget)
            let marked = try database.ints("SELECT count(*) FROM calls WHERE deleted_version IS NOT NULL")
            #expect(marked == [Int64(budget)])
            #expect(try database.ints("SELECT version FROM list_clears ORDER BY version") == [5, 10])
            // Each chunk after it marks as many, until the 250 are marked and both clears end.
            var chunks = 1
            while try database.ints("SELECT count(*) FROM list_clears") != [0] {
                let step = try #require(try database.pruneStep(budget: 2000))
                #expect(step <= budget)
                chunks += 1
            }
            #expect(chunks >= 250 / budget)
            #expect(try database.ints("SELECT count(*) FROM calls WHERE deleted_version IS NULL") == [1])
            #expect(try database.ints("SELECT cleared_below FROM lists") == [0])
        }
    }
}

/// What a kill -9 in the middle of the marking leaves: 250 calls created at 1...9, hidden by two
/// clears (at 5 and at 10) not marked yet, and "new" posted at 11; those created at 1...4 (112 of
/// them) go at 5, the rest at 10.
private func insertTwoClearsNotMarked(_ database: RawDatabase) throws {
    try database.execute(
        """
        INSERT INTO lists (name, version, forgotten_below, pruned_below, editing, revealed_row_id, call_count,
                           cleared_below)
        VALUES ('alice', 11, 0, 0, \(database.no), NULL, 1, 10);
        INSERT INTO list_versions (list_id, version, editing, revealed_row_id, created_at)
        VALUES (1, 0, \(database.no), NULL, 0);
        INSERT INTO list_clears (list_id, version) VALUES (1, 5), (1, 10);
        """)
    try database.insertOldCallsAndNew()
}

/// What `readAll` sees of one list: its info, the ids live at each version (all and missed), and
/// the current lookups of "a", "b" and "c".
private struct ListReading: Sendable {
    var info: ListInfo
    var calls: [Int64: [String]]
    var missed: [Int64: [String]]
    var lookups: [Call?]
}

private func readAll(_ store: any ListStore, _ list: String, at versions: [Int64]) async throws -> ListReading {
    try await store.read { transaction in
        var calls: [Int64: [String]] = [:]
        var missed: [Int64: [String]] = [:]
        for version in versions {
            calls[version] = try transaction.calls(in: list, at: version, filter: .all).map(\.id)
            missed[version] = try transaction.calls(in: list, at: version, filter: .missed).map(\.id)
        }
        return ListReading(
            info: try transaction.listInfo(list), calls: calls, missed: missed,
            lookups: try ["a", "b", "c"].map { try transaction.call($0, in: list) })
    }
}
