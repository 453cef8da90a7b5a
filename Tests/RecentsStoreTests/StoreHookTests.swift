import Foundation
import Synchronization
import Testing

@testable import RecentsStore

/// The store's hooks (`onCommit`, `watchedLists`) are read once per batch (and per listener
/// round) for as long as the server runs: a read must hand back what was set, unchanged.
@Suite struct StoreHookTests {
    @Test(arguments: Backend.available) func readingTheHooksDoesNotGrowThem(backend: Backend) async throws {
        try await withStore(backend) { store in
            let calls = Atomic<Int>(0)
            store.onCommit = { _ in calls.add(1, ordering: .relaxed) }
            store.watchedLists = { ["alice": 1] }
            // As many reads as a busy day has batches. A closure kept as a Mutex's value came back
            // wrapped in two more thunks from every read, so one call then ran 200,000 frames deep.
            for _ in 0..<100_000 {
                _ = store.onCommit
                _ = store.watchedLists
            }
            let onCommit = try #require(store.onCommit)
            let watchedLists = try #require(store.watchedLists)
            // On a 256 KiB stack: a chain of thunks overflows it (the process dies, the test fails).
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                onCommit(["alice": 2])
                _ = watchedLists()
                done.signal()
            }
            thread.stackSize = 256 * 1024
            thread.start()
            await waitBlocking(done)
            #expect(calls.load(ordering: .relaxed) == 1)
        }
    }

    @Test(arguments: Backend.available) func theStoresHooksCallWhatWasSet(backend: Backend) async throws {
        try await withStore(backend) { store in
            let seen = Atomic<Int>(0)
            store.onCommit = { versions in seen.add(versions.count, ordering: .relaxed) }
            store.watchedLists = { ["alice": 3] }
            for _ in 0..<1000 { _ = store.onCommit }
            #expect(store.watchedLists?() == ["alice": 3])
            _ = try await store.write { tx in try tx.insertCalls([makeCall("x")], into: "alice") }
            #expect(seen.load(ordering: .relaxed) == 1)
            store.onCommit = nil
            #expect(store.onCommit == nil)
        }
    }
}
