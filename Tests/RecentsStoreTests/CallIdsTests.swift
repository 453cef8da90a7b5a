import RecentsCore
import Testing

@testable import RecentsStore

/// `StoreReader.callIds(in:at:)`, the ids-only read behind "Delete all"'s reply (issue 42): at
/// every retained version it is exactly `calls(in:at:filter: .all).map(\.id)`, however the list
/// got there (deletes, clears hidden or marked, a forget, a request's own writes).
@Suite struct CallIdsTests {
    @Test(arguments: Backend.available) func theIdsAreTheCallsIdsInViewOrderAtEveryVersion(backend: Backend)
        async throws
    {
        try await withStore(backend) { store in
            // Equal timestamps order by id, descending byte-wise ("B" < "a").
            let first = [makeCall("a"), makeCall("B"), makeCall("c", timestamp: 1_700_000_100, missed: true)]
            _ = try await store.write { try $0.insertCalls(first, into: "alice") }  // 1
            let older = makeCall("d", timestamp: 1_699_999_000)
            _ = try await store.write { try $0.insertCalls([older], into: "alice") }  // 2
            _ = try await store.write { try $0.deleteCalls(ids: ["a"], from: "alice") }  // 3: a partial delete
            _ = try await store.write { try $0.clearCalls(of: "alice") }  // 4
            _ = try await store.write { try $0.insertCalls([makeCall("e"), makeCall("a")], into: "alice") }  // 5
            let expected: [Int64: [String]] = [
                0: [], 1: ["c", "a", "B"], 2: ["c", "a", "B", "d"], 3: ["c", "B", "d"], 4: [], 5: ["e", "a"],
            ]
            // Before the pruner marks the clear's calls (hidden by the floor), then after.
            #expect(try await idsAndCalls(store, "alice", at: Array(0...5)) == .init(ids: expected, calls: expected))
            try await store.pruneNow()
            #expect(try await idsAndCalls(store, "alice", at: Array(0...5)) == .init(ids: expected, calls: expected))
        }
    }

    @Test(arguments: Backend.available) func aForgottenListsOldCallsAreNotAmongItsIds(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await store.write { try $0.insertCalls([makeCall("a"), makeCall("b")], into: "alice") }  // 1
            _ = try await store.write { try $0.forgetList("alice") }  // 2
            let again = makeCall("a", timestamp: 1_700_000_900)
            _ = try await store.write { try $0.insertCalls([again], into: "alice") }  // 3
            let reading = try await idsAndCalls(store, "alice", at: [3])
            #expect(reading.ids == [3: ["a"]])
            #expect(reading.ids == reading.calls)
        }
    }

    @Test(arguments: Backend.available) func versionsOutsideTheWindowAreRefusedAsCallsRefuseThem(backend: Backend)
        async throws
    {
        try await withStore(backend, retainVersions: 2) { store in
            for index in 1...4 {
                _ = try await store.write { try $0.insertCalls([makeCall("c-\(index)")], into: "alice") }
            }
            try await store.pruneNow()
            try await store.read { transaction in
                let oldest = try transaction.listInfo("alice").oldestRetainedVersion
                #expect(oldest > 1)
                #expect(throws: StoreError.versionNotRetained(list: "alice", version: oldest - 1)) {
                    try transaction.callIds(in: "alice", at: oldest - 1)
                }
                #expect(throws: StoreError.versionNotRetained(list: "alice", version: 5)) {
                    try transaction.callIds(in: "alice", at: 5)
                }
                #expect(throws: StoreError.versionNotRetained(list: "nobody", version: 1)) {
                    try transaction.callIds(in: "nobody", at: 1)
                }
                #expect(try transaction.callIds(in: "nobody", at: 0) == [])
            }
        }
    }

    /// Inside a write the ids include what the same request posted (PostgreSQL holds those back
    /// in its batch until a read needs them) and leave out what it deleted.
    @Test(arguments: Backend.available) func aWriteSeesItsOwnChangesInTheIds(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await store.write { try $0.insertCalls([makeCall("a"), makeCall("b")], into: "alice") }
            let inWrite = try await store.write { transaction in
                // Posted last, so nothing the request does after it sends the held-back call.
                _ = try transaction.deleteCalls(ids: ["a"], from: "alice")
                try transaction.insertCalls([makeCall("c", timestamp: 1_700_000_100)], into: "alice")
                let version = try transaction.listInfo("alice").version
                return (
                    try transaction.callIds(in: "alice", at: version),
                    try transaction.calls(in: "alice", at: version, filter: .all).map(\.id)
                )
            }
            #expect(inWrite.value.0 == ["c", "b"])
            #expect(inWrite.value.0 == inWrite.value.1)
        }
    }

    /// More calls than one chunk of PostgreSQL's keyset reads, all at one timestamp, so the
    /// chunk boundary falls between equal timestamps and only the id orders them.
    @Test(arguments: Backend.available) func aListLargerThanAChunkIsReadWholeInOrder(backend: Backend) async throws {
        try await withStore(backend) { store in
            let count = PGCallCursor.idsChunk + 3
            let calls = (0..<count).map { makeCall("c-\($0)") }
            _ = try await store.write { try $0.insertCalls(calls, into: "alice") }
            let reading = try await idsAndCalls(store, "alice", at: [1])
            // Compared as Bools: a failure would otherwise print 16,000 ids twice.
            let ids = reading.ids[1] ?? []
            #expect(ids.count == count)
            let sameAsCalls = ids == reading.calls[1]
            let inViewOrder = ids == calls.sorted(by: viewOrder).map(\.id)
            #expect(sameAsCalls)
            #expect(inViewOrder)
        }
    }
}

/// The ids and the calls' ids of one list at each version, from one read transaction.
private struct IdsAndCalls: Equatable, Sendable {
    var ids: [Int64: [String]]
    var calls: [Int64: [String]]
}

private func idsAndCalls(_ store: any ListStore, _ list: String, at versions: [Int64]) async throws -> IdsAndCalls {
    try await store.read { transaction in
        var reading = IdsAndCalls(ids: [:], calls: [:])
        for version in versions {
            reading.ids[version] = try transaction.callIds(in: list, at: version)
            reading.calls[version] = try transaction.calls(in: list, at: version, filter: .all).map(\.id)
        }
        return reading
    }
}
