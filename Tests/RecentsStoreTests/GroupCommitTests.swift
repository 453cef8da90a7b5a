import Foundation
import RecentsCore
import Testing

@testable import RecentsStore

private struct Refused: Error {}

@Suite struct GroupCommitTests {
    @Test(arguments: Backend.available) func queuedWritesCommitAsOneBatchAndAThrowingOneFailsAlone(backend: Backend)
        async throws
    {
        try await withStore(backend, writers: 1) { store in
            let gate = WriterGate(store)
            let results = Box<[Int: Result<WriteOutcome<String>, Error>]>([:])
            let done = DispatchSemaphore(value: 0)
            for index in 0..<10 {
                store.write({ transaction in
                    try transaction.insertCalls([makeCall("c\(index)", timestamp: Int64(index))], into: "alice")
                    if index == 4 { throw Refused() }
                    return "w\(index)"
                }) { result in
                    results.update { $0[index] = result }
                    done.signal()
                }
            }
            let before = store.metrics
            gate.release()
            await waitBlocking(done, count: 10)
            let after = store.metrics
            #expect(after.batches == before.batches + 1)
            #expect(after.writes == before.writes + 10)
            #expect(after.failedWrites == before.failedWrites + 1)
            #expect(after.maxBatchSize >= 10)

            var expectedVersion: Int64 = 0
            for index in 0..<10 {
                let result = try #require(results.value[index])
                if index == 4 {
                    #expect(throws: Refused.self) { try result.get() }
                } else {
                    expectedVersion += 1
                    let outcome = try result.get()
                    #expect(outcome.value == "w\(index)")
                    #expect(outcome.versions == ["alice": expectedVersion])
                }
            }
            let ids = try await store.read { transaction in
                Array(try transaction.calls(in: "alice", at: try transaction.listInfo("alice").version)).map(\.id)
            }
            #expect(ids == ["c9", "c8", "c7", "c6", "c5", "c3", "c2", "c1", "c0"])
        }
    }

    @Test(arguments: Backend.available) func concurrentWritersAreAllDurableWithGapFreeVersions(backend: Backend)
        async throws
    {
        let threads = 16
        let writesPerThread = 50
        let lists = ["l0", "l1", "l2", "l3"]
        try await withStore(backend, writers: 1) { store in
            let shared = store.isShared
            let acknowledged = Box<[(id: String, list: String, version: Int64)]>([])
            let failures = Box<[String]>([])
            let committed = Box<[String: Int64]>([:])
            TestObserver.subscribe(store) { versions in
                committed.update { latest in
                    for (list, version) in versions {
                        // One writer tells each list's versions in increasing order; a shared
                        // store's several writers may not (consumers keep the larger), but never
                        // tell one version twice.
                        if let previous = latest[list], previous == version || (!shared && previous > version) {
                            failures.update { $0.append("onCommit went back on \(list)") }
                        }
                        latest[list] = max(latest[list] ?? 0, version)
                    }
                }
            }
            // Park the writer while the first requests queue up, so at least one batch groups
            // several requests whatever the timing of the threads.
            let gate = WriterGate(store)
            let started = DispatchSemaphore(value: 0)
            let finished = DispatchSemaphore(value: 0)
            for thread in 0..<threads {
                Thread {
                    for index in 0..<writesPerThread {
                        let id = "t\(thread)-\(index)"
                        let list = lists[(thread + index) % lists.count]
                        let done = DispatchSemaphore(value: 0)
                        store.write({ transaction in
                            try transaction.insertCalls([makeCall(id, timestamp: Int64(index))], into: list)
                        }) { result in
                            switch result {
                            case .success(let outcome):
                                if let version = outcome.versions[list], outcome.versions.count == 1,
                                    committed.value[list].map({ $0 >= version }) == true
                                {
                                    acknowledged.update { $0.append((id, list, version)) }
                                } else {
                                    failures.update { $0.append("\(id): versions \(outcome.versions)") }
                                }
                            case .failure(let error):
                                failures.update { $0.append("\(id): \(error)") }
                            }
                            done.signal()
                        }
                        if index == 0 { started.signal() }
                        done.wait()
                    }
                    finished.signal()
                }.start()
            }
            await waitBlocking(started, count: threads)
            gate.release()
            await waitBlocking(finished, count: threads)

            #expect(failures.value.isEmpty, "\(failures.value.prefix(5))")
            let acks = acknowledged.value
            #expect(acks.count == threads * writesPerThread)
            let metrics = store.metrics
            #expect(metrics.writes >= threads * writesPerThread)
            #expect(metrics.batches < metrics.writes, "no batch grouped requests: \(metrics)")
            #expect(metrics.maxBatchSize >= threads)

            for list in lists {
                let mine = acks.filter { $0.list == list }
                // Versions are gap-free 1…N, one per acknowledged write.
                #expect(mine.map(\.version).sorted() == Array(1...Int64(mine.count)))
                let byVersion = Dictionary(uniqueKeysWithValues: mine.map { ($0.version, $0.id) })
                let check = try await store.read { transaction -> [String] in
                    var problems: [String] = []
                    let info = try transaction.listInfo(list)
                    if info.version != Int64(mine.count) { problems.append("\(list) version \(info.version)") }
                    let live = Set(try transaction.calls(in: list, at: info.version).map(\.id))
                    if live != Set(mine.map(\.id)) { problems.append("\(list) live calls differ") }
                    // Each write's call appears exactly at its own version.
                    for (version, id) in byVersion {
                        let at = Set(try transaction.calls(in: list, at: version).map(\.id))
                        let before = Set(try transaction.calls(in: list, at: version - 1).map(\.id))
                        if !at.contains(id) || before.contains(id) || at.count != Int(version) {
                            problems.append("\(id) not created at \(version)")
                        }
                    }
                    return problems
                }
                #expect(check.isEmpty, "\(check.prefix(5))")
                #expect(committed.value[list] == Int64(mine.count))
            }
        }
    }

    @Test func aFailedCommitFailsEveryRequestOfTheBatch() async throws {
        try await withStore { store in
            let commits = Box(0)
            TestObserver.subscribe(store) { _ in commits.update { $0 += 1 } }
            let gate = WriterGate(store)
            let results = Box<[Int: Result<WriteOutcome<Void>, Error>]>([:])
            let done = DispatchSemaphore(value: 0)
            store.write({ try $0.insertCalls([makeCall("good")], into: "alice") }) { result in
                results.update { $0[0] = result }
                done.signal()
            }
            // Deferred foreign keys are checked at COMMIT, so this request makes COMMIT itself fail
            // (https://sqlite.org/foreignkeys.html#fk_deferred).
            store.write({ writer in
                let transaction = try #require(writer as? SQLiteWriteTransaction)
                try transaction.connection.execute("PRAGMA defer_foreign_keys = ON")
                try transaction.connection.run(
                    """
                    INSERT INTO calls (list_id, call_id, peer_id, peer_name, direction, end_reason, video,
                                       duration, timestamp, missed, created_version)
                    VALUES (4242, 'orphan', 'p', 'P', 'outgoing', 'hangup', 0, 0, 0, 0, 1)
                    """)
            }) { result in
                results.update { $0[1] = result }
                done.signal()
            }
            gate.release()
            await waitBlocking(done, count: 2)
            for index in 0..<2 {
                let result = try #require(results.value[index])
                #expect(throws: StoreError.self) { try result.get() }
            }
            #expect(commits.value == 0)
            #expect(store.metrics.failedBatches == 1)
            #expect(store.metrics.failedWrites == 2)
            #expect(try await store.read { try $0.listInfo("alice") }.exists == false)
            // The writer recovers: the next batch commits normally.
            #expect(
                try await store.write { try $0.insertCalls([makeCall("good")], into: "alice") }.versions == ["alice": 1]
            )
            #expect(commits.value == 1)
        }
    }

    @Test(arguments: Backend.available) func batchesAreCappedAtTheConfiguredSize(backend: Backend) async throws {
        try await withStore(backend, maxBatchSize: 4, writers: 1) { store in
            let gate = WriterGate(store)
            let done = DispatchSemaphore(value: 0)
            for index in 0..<10 {
                store.write({ try $0.insertCalls([makeCall("c\(index)")], into: "alice") }) { _ in done.signal() }
            }
            gate.release()
            await waitBlocking(done, count: 10)
            let metrics = store.metrics
            #expect(metrics.batches == 3)
            #expect(metrics.maxBatchSize == 4)
            #expect(metrics.batchSizeHistogram == [4: 2, 2: 1])
            #expect(metrics.versionsWritten == 10)
        }
    }

    @Test(arguments: Backend.available) func onCommitRunsBeforeTheCompletions(backend: Backend) async throws {
        try await withStore(backend, writers: 1) { store in
            let seen = Box<[String: Int64]>([:])
            TestObserver.subscribe(store) { versions in seen.update { $0.merge(versions) { max($0, $1) } } }
            let outcome = try await store.write { transaction in
                try transaction.insertCalls([makeCall("a")], into: "alice")
                try transaction.setState(ListState(editing: true), of: "bob")
                return seen.value
            }
            #expect(outcome.value.isEmpty)  // the body ran before the commit
            #expect(outcome.versions == ["alice": 1, "bob": 1])
            #expect(seen.value == ["alice": 1, "bob": 1])  // and onCommit before this completion
        }
    }
}
