import Foundation
import Synchronization
import Testing

@testable import RecentsStore

/// The store tells one observer of its commits, and holds it weakly: the observer (the API's
/// live updates) holds the store, and the two must not keep each other alive.
@Suite struct CommitObserverTests {
    @Test(arguments: Backend.available) func theObserverHearsEachCommitBeforeItsCompletion(backend: Backend)
        async throws
    {
        try await withStore(backend) { store in
            let seen = Mutex<[[String: Int64]]>([])
            TestObserver.subscribe(store) { versions in seen.withLock { $0.append(versions) } }
            _ = try await store.write { tx in try tx.insertCalls([makeCall("x")], into: "alice") }
            #expect(seen.withLock { $0 } == [["alice": 1]])
            // A write that changes nothing commits no version and tells nobody.
            _ = try await store.write { tx in try tx.listInfo("alice") }
            #expect(seen.withLock { $0 }.count == 1)
        }
    }

    @Test(arguments: Backend.available) func aNewSubscriptionReplacesTheOldOne(backend: Backend) async throws {
        try await withStore(backend) { store in
            let first = Atomic<Int>(0)
            let second = Atomic<Int>(0)
            TestObserver.subscribe(store) { _ in first.add(1, ordering: .relaxed) }
            TestObserver.subscribe(store) { _ in second.add(1, ordering: .relaxed) }
            _ = try await store.write { tx in try tx.insertCalls([makeCall("x")], into: "alice") }
            #expect(first.load(ordering: .relaxed) == 0)
            #expect(second.load(ordering: .relaxed) == 1)
        }
    }

    @Test(arguments: Backend.available) func theStoreDoesNotKeepItsObserverAlive(backend: Backend) async throws {
        try await withStore(backend) { store in
            weak var gone: TestObserver?
            do {
                let observer = TestObserver()
                store.subscribe(observer)
                gone = observer
            }
            #expect(gone == nil, "the store kept its observer alive")
            // Commits go on without one.
            let outcome = try await store.write { tx in try tx.insertCalls([makeCall("x")], into: "alice") }
            #expect(outcome.versions == ["alice": 1])
        }
    }
}
