import Foundation
import RecentsCore
import Synchronization
import Testing

@testable import RecentsStore

/// A flag shared between test tasks.
private final class Flag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}

@Suite struct StoreTests {
    @Test(arguments: Backend.available) func aNeverWrittenListReadsAsEmptyAtVersionZeroWithoutBeingCreated(
        backend: Backend
    ) async throws {
        try await withStore(backend) { store in
            let info = try await store.read { transaction in
                let info = try transaction.listInfo("nobody")
                _ = try transaction.isRetained(0, in: "nobody")
                _ = Array(try transaction.calls(in: "nobody", at: 0))
                return info
            }
            #expect(
                info
                    == ListInfo(
                        name: "nobody", version: 0, oldestRetainedVersion: 0, state: ListState(), callCount: 0,
                        exists: false))
            #expect(try await queryInts(store, "SELECT count(*) FROM lists") == [0])
            let state = try await store.read { try $0.state(of: "nobody", at: 0) }
            #expect(state == ListState())
            await #expect(throws: StoreError.self) {
                try await store.read { _ = try $0.calls(in: "nobody", at: 1) }
            }
        }
    }

    @Test(arguments: Backend.available) func writesThatChangeNothingCreateNoVersion(backend: Backend) async throws {
        try await withStore(backend) { store in
            let commits = Box(0)
            TestObserver.subscribe(store) { _ in commits.update { $0 += 1 } }
            let created = try await store.write { transaction in
                try transaction.insertCalls([makeCall("a")], into: "alice")
                try transaction.setState(ListState(editing: true, revealedRowId: "a"), of: "alice")
            }
            #expect(created.versions == ["alice": 1])
            let noop = try await store.write { transaction -> [String] in
                try transaction.insertCalls([], into: "alice")
                let deleted = try transaction.deleteCalls(ids: ["absent", "also-absent"], from: "alice")
                _ = try transaction.deleteCalls(ids: ["a"], from: "never-written")
                try transaction.setState(ListState(editing: true, revealedRowId: "a"), of: "alice")
                try transaction.setState(ListState(), of: "never-written")
                try transaction.forgetList("never-written")
                return deleted
            }
            #expect(noop.versions.isEmpty)
            #expect(noop.value.isEmpty)
            #expect(commits.value == 1)
            let info = try await store.read { try $0.listInfo("alice") }
            #expect(info.version == 1)
            #expect(try await queryInts(store, "SELECT count(*) FROM lists") == [1])
        }
    }

    @Test(arguments: Backend.available) func deleteCallsReportsTheIdsItDeletedInTheOrderGiven(backend: Backend)
        async throws
    {
        try await withStore(backend) { store in
            _ = try await store.write { try $0.insertCalls(["a", "b", "c"].map { makeCall($0) }, into: "alice") }
            let outcome = try await store.write { transaction in
                try transaction.deleteCalls(ids: ["c", "zz", "a", "c"], from: "alice")
            }
            #expect(outcome.value == ["c", "a"])
            #expect(outcome.versions == ["alice": 2])
            let (live, old, count) = try await store.read { transaction in
                (
                    try transaction.call("b", in: "alice") != nil && (try transaction.call("a", in: "alice")) == nil,
                    Array(try transaction.calls(in: "alice", at: 1)).map(\.id),
                    try transaction.listInfo("alice").callCount
                )
            }
            #expect(live)
            #expect(old.sorted() == ["a", "b", "c"])
            #expect(count == 1)
            // A deleted id may be posted again as a new record.
            let again = try await store.write { try $0.insertCalls([makeCall("a", timestamp: 5)], into: "alice") }
            #expect(again.versions == ["alice": 3])
            let reposted = try await store.read { try $0.call("a", in: "alice") }
            #expect(reposted?.timestamp == 5)
        }
    }

    @Test(arguments: Backend.available) func insertingALiveIdAgainFailsThatRequestWithAUniqueViolation(backend: Backend)
        async throws
    {
        try await withStore(backend) { store in
            _ = try await store.write { try $0.insertCalls([makeCall("a")], into: "alice") }
            do {
                _ = try await store.write { try $0.insertCalls([makeCall("b"), makeCall("a")], into: "alice") }
                Issue.record("a duplicate live id was accepted")
            } catch let error as StoreError {
                #expect(error.isUniqueViolation)
            }
            let info = try await store.read { try $0.listInfo("alice") }
            #expect(info.version == 1 && info.callCount == 1)
        }
    }

    @Test(arguments: Backend.available) func forgetIsAWriteThatDropsAllEarlierHistory(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await store.write { try $0.insertCalls([makeCall("a"), makeCall("b")], into: "alice") }
            _ = try await store.write { try $0.setState(ListState(editing: true), of: "alice") }
            let forget = try await store.write { try $0.forgetList("alice") }
            #expect(forget.versions == ["alice": 3])
            let info = try await store.read { try $0.listInfo("alice") }
            #expect(
                info
                    == ListInfo(
                        name: "alice", version: 3, oldestRetainedVersion: 3, state: ListState(), callCount: 0,
                        exists: true))
            let retained = try await store.read { t in try (0...3).map { try t.isRetained($0, in: "alice") } }
            #expect(retained == [false, false, false, true])
            // The calls go in the pruner's chunks, after the forget (ForgetCleanupTests).
            try await store.pruneNow()
            #expect(try await queryInts(store, "SELECT count(*) FROM calls") == [0])
            #expect(try await queryInts(store, "SELECT version FROM list_versions") == [3])
            // Already empty with no history left: forgetting again changes nothing.
            #expect(try await store.write { try $0.forgetList("alice") }.versions.isEmpty)
            // Versions keep increasing after a forget.
            #expect(
                try await store.write { try $0.insertCalls([makeCall("a")], into: "alice") }.versions == ["alice": 4])
        }
    }

    @Test(arguments: Backend.available) func deleteForEveryoneChangesSeveralListsInOneTransaction(backend: Backend)
        async throws
    {
        try await withStore(backend) { store in
            _ = try await store.write { try $0.insertCalls([makeCall("x")], into: "alice") }
            let outcome = try await store.write { transaction in
                try transaction.insertCalls([makeCall("shared")], into: "alice")
                try transaction.insertCalls([makeCall("shared", peer: "alice")], into: "bob")
                return try transaction.deleteCalls(ids: ["shared"], from: "alice")
                    + transaction.deleteCalls(ids: ["shared"], from: "bob")
            }
            #expect(outcome.value == ["shared", "shared"])
            #expect(outcome.versions == ["alice": 2, "bob": 1])
        }
    }

    @Test(arguments: Backend.available) func ordersByTimestampThenIdsByteWise(backend: Backend) async throws {
        try await withStore(backend) { store in
            let ids = ["a", "B", "b", "A", "1", "10", "9", "_", "-", "Z", "a.b", "a:b", "aa"]
            let calls =
                ids.map { makeCall($0, timestamp: 100, missed: true) } + [
                    makeCall("old", timestamp: 99, missed: true), makeCall("new", timestamp: 101),
                ]
            _ = try await store.write { try $0.insertCalls(calls, into: "alice") }
            let (all, missed) = try await store.read { transaction in
                (
                    Array(try transaction.calls(in: "alice", at: 1, filter: .all)).map(\.id),
                    Array(try transaction.calls(in: "alice", at: 1, filter: .missed)).map(\.id)
                )
            }
            let byteDescending = ids.sorted { Array($1.utf8).lexicographicallyPrecedes(Array($0.utf8)) }
            #expect(all == ["new"] + byteDescending + ["old"])
            #expect(missed == byteDescending + ["old"])
            // Spelled out: lowercase > "_" > uppercase > digits > "-", "10" between "9" and "1".
            #expect(byteDescending == ["b", "aa", "a:b", "a.b", "a", "_", "Z", "B", "A", "9", "10", "1", "-"])
        }
    }

    @Test func viewQueriesWalkAnIndexInViewOrderWithoutSorting() async throws {
        try await withStore { store in
            _ = try await store.write { try $0.insertCalls((0..<50).map { makeCall("c\($0)") }, into: "alice") }
            for (sql, index) in [(CallCursor.allSQL, "calls_view"), (CallCursor.missedSQL, "calls_view")] {
                let plan = try await store.readTransaction { transaction in
                    try transaction.connection.with("EXPLAIN QUERY PLAN " + sql, 1, 1) { statement in
                        var details: [String] = []
                        while try statement.step() { details.append(statement.string(3)) }
                        return details.joined(separator: "; ")
                    }
                }
                #expect(plan.contains(index), "\(plan)")
                #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
            }
        }
    }

    @Test func aCursorReadsOnlyTheRowsItIsAskedFor() async throws {
        try await withStore { store in
            _ = try await store.write {
                try $0.insertCalls((0..<2000).map { makeCall("c\($0)", timestamp: Int64($0)) }, into: "alice")
            }
            let (first, windowSteps, fullSteps) = try await store.read { transaction in
                let window = try transaction.calls(in: "alice", at: 1)
                let first = Array(window.prefix(50)).map(\.id)
                let full = try transaction.calls(in: "alice", at: 1)
                let count = Array(full).count
                return (
                    first + ["\(count)"], (window.cursor as? CallCursor)?.steps ?? 0,
                    (full.cursor as? CallCursor)?.steps ?? 0
                )
            }
            #expect(first == (1950..<2000).reversed().map { "c\($0)" } + ["2000"])
            // Work is proportional to the rows taken, not to the list's size.
            #expect(windowSteps > 0)
            #expect(windowSteps * 20 < fullSteps, "window \(windowSteps) vs full \(fullSteps) VM steps")
        }
    }

    @Test(arguments: Backend.available) func readsSeeConsistentSnapshotsWhileWritesProceed(backend: Backend)
        async throws
    {
        try await withStore(backend, readers: 2) { store in
            let done = Flag()
            async let writes: Void = {
                defer { done.set() }
                for index in 0..<150 {
                    _ = try await store.write { transaction in
                        try transaction.insertCalls(
                            [makeCall("c\(index)", timestamp: Int64(index % 7), missed: index % 3 == 0)], into: "snap")
                        if index % 4 == 3 { _ = try transaction.deleteCalls(ids: ["c\(index - 2)"], from: "snap") }
                        try transaction.setState(ListState(editing: index % 2 == 0), of: "snap")
                    }
                }
            }()
            var reads = 0
            while !done.isSet || reads < 20 {
                let problem = try await store.read { transaction -> String? in
                    let info = try transaction.listInfo("snap")
                    let live = Array(try transaction.calls(in: "snap", at: info.version))
                    if live.count != info.callCount {
                        return "count \(live.count) != \(info.callCount) at \(info.version)"
                    }
                    if info.version > 0, try transaction.state(of: "snap", at: info.version) != info.state {
                        return "state differs at \(info.version)"
                    }
                    return nil
                }
                #expect(problem == nil)
                reads += 1
            }
            try await writes
        }
    }

    @Test(arguments: Backend.available) func readersDoNotWaitForAnOpenWriteTransaction(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await store.write { try $0.insertCalls([makeCall("a")], into: "alice") }
            let inBody = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let finished = DispatchSemaphore(value: 0)
            store.write({ transaction in
                // PostgreSQL plans the batch by running the body once first: only the real run blocks.
                if WritePlanner.isPlanning(transaction) { return }
                try transaction.insertCalls([makeCall("b")], into: "alice")
                inBody.signal()
                release.wait()  // holds BEGIN IMMEDIATE's write lock until the read below is done
            }) { _ in finished.signal() }
            await waitBlocking(inBody)
            let info = try await store.read { try $0.listInfo("alice") }
            #expect(info.version == 1)  // the uncommitted version 2 is invisible
            release.signal()
            await waitBlocking(finished)
            #expect(try await store.read { try $0.listInfo("alice") }.version == 2)
        }
    }

    @Test(arguments: Backend.available) func aWriteSeesItsOwnEarlierChanges(backend: Backend) async throws {
        try await withStore(backend) { store in
            let outcome = try await store.write { transaction -> [String] in
                try transaction.insertCalls([makeCall("a"), makeCall("b", timestamp: 1_800_000_000)], into: "alice")
                let info = try transaction.listInfo("alice")
                return Array(try transaction.calls(in: "alice", at: info.version)).map(\.id) + ["v\(info.version)"]
            }
            #expect(outcome.value == ["b", "a", "v1"])
        }
    }

    @Test func closeDrainsWorkAndIsIdempotent() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteListStore.open(StoreConfiguration(path: directory + "/c.sqlite"))
            #expect(store.healthCheck())
            let acknowledged = Box(0)
            for index in 0..<20 {
                store.write({ try $0.insertCalls([makeCall("c\(index)")], into: "alice") }) { result in
                    if case .success = result { acknowledged.update { $0 += 1 } }
                }
            }
            store.close()
            store.close()
            #expect(acknowledged.value == 20)
            await #expect(throws: StoreError.closed) { try await store.write { _ in 1 } }
            await #expect(throws: StoreError.closed) { try await store.read { _ in 1 } }
            let reopened = try SQLiteListStore.open(StoreConfiguration(path: directory + "/c.sqlite"))
            #expect(try await reopened.read { try $0.listInfo("alice") }.version == 20)
            reopened.close()
        }
    }

    @Test(arguments: Backend.available) func retentionIsALogicalRuleOnVersionNumbers(backend: Backend) async throws {
        try await withStore(backend, retainVersions: 3) { store in
            for index in 0..<6 {
                _ = try await store.write { try $0.insertCalls([makeCall("c\(index)")], into: "alice") }
            }
            let retained = try await store.read { t in try (0...7).map { try t.isRetained(Int64($0), in: "alice") } }
            #expect(retained == [false, false, false, true, true, true, true, false])
            // Widening the window cannot resurrect pruned versions.
            try await store.pruneNow()
            store.retainVersions = 10
            let widened = try await store.read { try $0.listInfo("alice").oldestRetainedVersion }
            #expect(widened == 3)
            _ = try await store.write { try $0.insertCalls([makeCall("c6")], into: "alice") }
            #expect(try await store.read { try $0.listInfo("alice").oldestRetainedVersion } == 3)
        }
    }
}

@Suite struct LifetimeTests {
    @Test func droppingTheLastReferenceInACompletionDoesNotDeadlock() async throws {
        try await withTemporaryDirectory { directory in
            let done = DispatchSemaphore(value: 0)
            do {
                let store = try SQLiteListStore.open(StoreConfiguration(path: directory + "/l.sqlite"))
                store.write({ try $0.insertCalls([makeCall("a")], into: "alice") }) { [store] result in
                    // This closure may hold the last reference: the store is then released on the writer thread.
                    _ = store.epoch
                    if case .success = result { done.signal() }
                }
            }
            await waitBlocking(done)
        }
    }
}

@Suite struct CursorTests {
    @Test func abandonedCursorsGiveTheirStatementBackAtOnce() async throws {
        try await withStore { store in
            _ = try await store.write { try $0.insertCalls((0..<100).map { makeCall("c\($0)") }, into: "alice") }
            let prepared = try await store.readTransaction { transaction in
                _ = Array(try transaction.calls(in: "alice", at: 1).prefix(1))  // warm the cache
                let before = transaction.connection.preparedCount
                for _ in 0..<50 { _ = Array(try transaction.calls(in: "alice", at: 1).prefix(5)) }
                return transaction.connection.preparedCount - before
            }
            #expect(prepared == 0)
        }
    }

    @Test(arguments: Backend.available) func twoOpenCursorsInterleaveIndependently(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await store.write { transaction in
                try transaction.insertCalls((0..<5).map { makeCall("a\($0)", timestamp: Int64($0)) }, into: "alice")
                try transaction.insertCalls((0..<5).map { makeCall("b\($0)", timestamp: Int64($0)) }, into: "bob")
            }
            let merged = try await store.read { transaction in
                var alice = try transaction.calls(in: "alice", at: 1).makeIterator()
                var bob = try transaction.calls(in: "bob", at: 1).makeIterator()
                var ids: [String] = []
                while let a = alice.next(), let b = bob.next() { ids += [a.id, b.id] }
                return ids
            }
            #expect(merged == ["a4", "b4", "a3", "b3", "a2", "b2", "a1", "b1", "a0", "b0"])
        }
    }
}
