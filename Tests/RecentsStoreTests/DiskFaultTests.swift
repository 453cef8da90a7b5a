import Foundation
import RecentsCore
import Testing

@testable import RecentsStore

/// A full disk made real with `PRAGMA max_page_count` on the writer's connection
/// (https://sqlite.org/pragma.html#pragma_max_page_count): SQLite then answers SQLITE_FULL
/// exactly as it does when the file system has no space left.
@Suite struct DiskFaultTests {
    /// Caps the writer's database at its current size (`full`), or lifts the cap.
    static func setFull(_ store: SQLiteListStore, _ full: Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let submitted = store.onWriter { context in
                let pages = (try? context.connection.queryInt("PRAGMA page_count")) ?? 1
                try? context.connection.execute("PRAGMA max_page_count = \(full ? pages : 1_073_741_823)")
                continuation.resume()
            }
            if !submitted { continuation.resume() }
        }
    }

    /// Enough calls to need new pages (names make the rows wide).
    static func bigBatch(_ prefix: String, count: Int = 400) -> [Call] {
        (0..<count).map { index in
            Call(
                id: "\(prefix)-\(index)", peer: Peer(id: "p\(index)", name: String(repeating: "n", count: 200)),
                direction: .outgoing, endReason: .hangup, video: false, duration: 1, timestamp: Int64(index))
        }
    }

    @Test func aFullDiskFailsTheWriteLeavesReadsAndRecoversWithoutRestart() async throws {
        try await withStore { store in
            let commits = Box<[[String: Int64]]>([])
            TestObserver.subscribe(store) { versions in commits.update { $0.append(versions) } }
            _ = try await store.write { tx in try tx.insertCalls([makeCall("first")], into: "alice") }
            #expect(store.health == .ok)
            let commitsBefore = commits.value.count

            await Self.setFull(store, true)
            await #expect {
                _ = try await store.write { tx in try tx.insertCalls(Self.bigBatch("full"), into: "alice") }
            } throws: { error in
                (error as? StoreError)?.isStorageUnavailable == true
            }
            #expect(store.health == .degraded(reason: "the disk is full"))
            #expect(commits.value.count == commitsBefore, "a failed commit must not move any head")
            // A write that changes nothing commits without a page written: no proof of recovery.
            _ = try await store.write { tx in try tx.setState(ListState(), of: "alice") }
            #expect(store.health == .degraded(reason: "the disk is full"))

            // Reads keep working and see nothing of the failed write.
            let info = try await store.read { tx in try tx.listInfo("alice") }
            #expect(info.version == 1)
            #expect(info.callCount == 1)

            await Self.setFull(store, false)
            let outcome = try await store.write { tx in try tx.insertCalls(Self.bigBatch("later"), into: "alice") }
            #expect(outcome.versions == ["alice": 2])
            #expect(store.health == .ok)
            #expect(try await store.read { tx in try tx.listInfo("alice").callCount } == 401)
        }
    }

    @Test func aReadOnlyDatabaseIsAStorageFailureUntilItIsWritableAgain() async throws {
        try await withStore { store in
            _ = try await store.write { tx in try tx.insertCalls([makeCall("first")], into: "alice") }
            // query_only makes SQLite answer SQLITE_READONLY to every write of the connection.
            let setReadOnly = { @Sendable (on: Bool) async in
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    _ = store.onWriter { context in
                        try? context.connection.execute("PRAGMA query_only = \(on ? "ON" : "OFF")")
                        continuation.resume()
                    }
                }
            }
            await setReadOnly(true)
            await #expect {
                _ = try await store.write { tx in try tx.insertCalls([makeCall("refused")], into: "alice") }
            } throws: { error in
                guard case .readOnly = error as? StoreError else { return false }
                return true
            }
            #expect(store.health == .degraded(reason: "the database is read-only"))
            #expect(try await store.read { tx in try tx.listInfo("alice").version } == 1)
            await setReadOnly(false)
            _ = try await store.write { tx in try tx.insertCalls([makeCall("accepted")], into: "alice") }
            #expect(store.health == .ok)
        }
    }

    @Test func aBatchHitByAFullDiskAcknowledgesOnlyWhatIsDurable() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/full.sqlite"
            let acknowledged = Box<[String]>([])
            do {
                let store = try SQLiteListStore.open(StoreConfiguration(path: path))
                defer { store.close() }
                _ = try await store.write { tx in try tx.insertCalls([makeCall("seed")], into: "alice") }
                await Self.setFull(store, true)
                let gate = WriterGate(store)
                let done = DispatchSemaphore(value: 0)
                for index in 0..<6 {
                    // Small writes may fit in free space; the big ones cannot.
                    let calls = index.isMultiple(of: 2) ? [makeCall("small-\(index)")] : Self.bigBatch("big-\(index)")
                    store.write({ tx in try tx.insertCalls(calls, into: "alice") }) { result in
                        if case .success = result { acknowledged.update { $0.append(calls[0].id) } }
                        if case .failure(let error) = result {
                            #expect((error as? StoreError)?.isStorageUnavailable == true, "\(error)")
                        }
                        done.signal()
                    }
                }
                gate.release()
                await waitBlocking(done, count: 6)
                #expect(!acknowledged.value.contains { $0.hasPrefix("big-") })
            }
            let reopened = try SQLiteListStore.open(StoreConfiguration(path: path))
            defer { reopened.close() }
            let stored = try await reopened.read { tx in
                Set(try tx.calls(in: "alice", at: try tx.listInfo("alice").version).map(\.id))
            }
            for id in acknowledged.value { #expect(stored.contains(id), "acknowledged \(id) was lost") }
            #expect(stored.count == acknowledged.value.count + 1, "only acknowledged writes are stored")
        }
    }
}
