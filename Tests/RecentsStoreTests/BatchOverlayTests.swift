import Foundation
import RecentsCore
import Testing

@testable import RecentsStore

private struct Refused: Error {}

/// One batch whose requests read what earlier ones wrote, and one whose request the database
/// refuses: on PostgreSQL the plain writes are held back and sent together (`PGWriteBatch`), so
/// every later request must still see them, and a refusal must stay its own request's.
@Suite struct BatchOverlayTests {
    /// Queues `bodies` while the writer is parked, so they run as one batch, in order; returns
    /// each result.
    private func oneBatch(
        _ store: any ListStore, hints: [WriteHint] = [], _ bodies: [@Sendable (any StoreWriter) throws -> String]
    ) async -> [Result<WriteOutcome<String>, Error>] {
        let gate = WriterGate(store)
        let results = Box<[Int: Result<WriteOutcome<String>, Error>]>([:])
        let done = DispatchSemaphore(value: 0)
        for (index, body) in bodies.enumerated() {
            let hint = index < hints.count ? hints[index] : WriteHint()
            let completion: @Sendable (Result<WriteOutcome<String>, any Error>) -> Void = { result in
                results.update { $0[index] = result }
                done.signal()
            }
            if let store = store as? PGListStore {
                store.write(hint: hint, { transaction in try body(transaction) }, completion: completion)
            } else if let store = store as? SQLiteListStore {
                store.write(hint: hint, { transaction in try body(transaction) }, completion: completion)
            }
        }
        let before = store.metrics.batches
        gate.release()
        await waitBlocking(done, count: bodies.count)
        #expect(store.metrics.batches == before + 1, "the requests did not form one batch")
        return (0..<bodies.count).map { results.value[$0] ?? .failure(Refused()) }
    }

    @Test(arguments: Backend.available) func laterRequestsOfABatchSeeWhatEarlierOnesWrote(backend: Backend)
        async throws
    {
        try await withStore(backend, writers: 1) { store in
            let results = await oneBatch(
                store,
                [
                    { tx in
                        try tx.insertCalls([makeCall("a", timestamp: 1), makeCall("b", timestamp: 2)], into: "alice")
                        return "posted"
                    },
                    // A delete reads the live calls: the two just posted are among them.
                    { tx in try tx.deleteCalls(ids: ["a", "zz"], from: "alice").joined(separator: ",") },
                    { tx in
                        let seen = try tx.call("b", in: "alice")?.id ?? "none"
                        try tx.setState(ListState(editing: true, revealedRowId: nil), of: "alice")
                        return seen
                    },
                    { tx in
                        try tx.insertCalls([makeCall("c", timestamp: 3)], into: "alice")
                        throw Refused()
                    },
                    { tx in
                        let refused = try tx.call("c", in: "alice")?.id ?? "none"
                        try tx.insertCalls([makeCall("d", timestamp: 4)], into: "bob")
                        return refused
                    },
                    { tx in
                        try tx.insertCalls([makeCall("e", timestamp: 5)], into: "alice")
                        let info = try tx.listInfo("alice")
                        return "\(info.version) \(info.callCount) \(info.state.editing)"
                    },
                ])
            #expect(try results[0].get().versions == ["alice": 1])
            #expect(try results[1].get().value == "a")
            #expect(try results[1].get().versions == ["alice": 2])
            #expect(try results[2].get().value == "b")
            #expect(try results[2].get().versions == ["alice": 3])
            #expect(throws: Refused.self) { try results[3].get() }
            #expect(try results[4].get().value == "none")
            #expect(try results[4].get().versions == ["bob": 1])
            #expect(try results[5].get().value == "4 2 true")
            #expect(try results[5].get().versions == ["alice": 4])

            let stored = try await store.read { tx in
                (
                    info: try tx.listInfo("alice"), now: Array(try tx.calls(in: "alice", at: 4)).map(\.id),
                    v1: Array(try tx.calls(in: "alice", at: 1)).map(\.id),
                    v2: Array(try tx.calls(in: "alice", at: 2)).map(\.id),
                    bob: Array(try tx.calls(in: "bob", at: try tx.listInfo("bob").version)).map(\.id)
                )
            }
            #expect(stored.info.version == 4)
            #expect(stored.info.callCount == 2)
            #expect(stored.info.state.editing)
            #expect(stored.now == ["e", "b"])
            #expect(stored.v1 == ["b", "a"])
            #expect(stored.v2 == ["b"])
            #expect(stored.bob == ["d"])
        }
    }

    @Test(arguments: Backend.available) func aWriteTheDatabaseRefusesFailsOnlyItsOwnRequest(backend: Backend)
        async throws
    {
        try await withStore(backend, writers: 1) { store in
            // The second request posts an id that is already live, past the API's own check: the
            // database's unique index refuses it (on PostgreSQL only when the batch's INSERT runs).
            let results = await oneBatch(
                store,
                [
                    { tx in
                        try tx.insertCalls([makeCall("dup", timestamp: 1)], into: "alice")
                        return "first"
                    },
                    { tx in
                        try tx.insertCalls([makeCall("dup", timestamp: 2)], into: "alice")
                        return "second"
                    },
                    { tx in
                        try tx.insertCalls([makeCall("other", timestamp: 3)], into: "alice")
                        return "third"
                    },
                ])
            #expect(try results[0].get().versions == ["alice": 1])
            #expect(throws: (any Error).self) { try results[1].get() }
            #expect(try results[2].get().versions == ["alice": 2])
            let stored = try await store.read { tx in
                (info: try tx.listInfo("alice"), ids: Array(try tx.calls(in: "alice", at: 2)).map(\.timestamp))
            }
            #expect(stored.info.version == 2)
            #expect(stored.info.callCount == 2)
            #expect(stored.ids == [3, 1])
        }
    }

    @Test(arguments: Backend.available) func aReplyRecordedEarlierInTheBatchIsFoundByALaterRequest(backend: Backend)
        async throws
    {
        try await withStore(backend, writers: 1) { store in
            let reply = IdempotentReply(fingerprint: "f1", status: 201, body: Array("{\"version\":1}".utf8))
            let results = await oneBatch(
                store,
                [
                    { tx in
                        let earlier = try tx.idempotentReply(key: "k", in: "alice")
                        try tx.insertCalls([makeCall("x")], into: "alice")
                        try tx.recordIdempotentReply(reply, key: "k", in: "alice")
                        return earlier == nil ? "fresh" : "replayed"
                    },
                    { tx in
                        guard let earlier = try tx.idempotentReply(key: "k", in: "alice") else { return "fresh" }
                        return "replayed \(earlier.fingerprint) \(earlier.status)"
                    },
                ])
            #expect(try results[0].get().value == "fresh")
            #expect(try results[1].get().value == "replayed f1 201")
            #expect(try results[1].get().versions.isEmpty)
            let later = try await store.write { tx in try tx.idempotentReply(key: "k", in: "alice") }
            #expect(later.value?.fingerprint == reply.fingerprint)
            #expect(later.value?.body == reply.body)
        }
    }

    @Test(arguments: Backend.available) func hintsChangeNothingAWriteSees(backend: Backend) async throws {
        try await withStore(backend, writers: 1) { store in
            _ = try await store.write { tx in try tx.insertCalls([makeCall("old", timestamp: 1)], into: "alice") }
            let results = await oneBatch(
                store,
                hints: [
                    WriteHint(lists: ["alice", "bob"], calls: ["alice": ["a", "old"]]),
                    WriteHint(lists: ["alice"], calls: ["alice": ["a", "old", "gone"]]),
                    // Wrong on purpose: names a list and a call the body never looks at.
                    WriteHint(lists: ["carol"], calls: ["carol": ["x"], "alice": ["zz"]]),
                    WriteHint(calls: ["alice": ["a"]]),
                ],
                [
                    { tx in
                        let old = try tx.call("old", in: "alice")?.id ?? "none"
                        try tx.insertCalls([makeCall("a", timestamp: 2)], into: "alice")
                        return old
                    },
                    { tx in
                        let seen = [try tx.call("a", in: "alice"), try tx.call("old", in: "alice")].compactMap {
                            $0?.id
                        }
                        try tx.deleteCalls(ids: ["old"], from: "alice")
                        return seen.joined(separator: ",")
                    },
                    { tx in
                        try tx.insertCalls([makeCall("d", timestamp: 3)], into: "dave")
                        return [try tx.call("old", in: "alice"), try tx.call("a", in: "alice")].compactMap { $0?.id }
                            .joined(separator: ",")
                    },
                    { tx in
                        try tx.insertCalls([makeCall("a2", timestamp: 4)], into: "alice")
                        throw Refused()
                    },
                ])
            #expect(try results[0].get().value == "old")
            #expect(try results[0].get().versions == ["alice": 2])
            #expect(try results[1].get().value == "a,old")
            #expect(try results[1].get().versions == ["alice": 3])
            #expect(try results[2].get().value == "a")
            #expect(try results[2].get().versions == ["dave": 1])
            #expect(throws: Refused.self) { try results[3].get() }
            let stored = try await store.read { tx in
                (
                    alice: Array(try tx.calls(in: "alice", at: try tx.listInfo("alice").version)).map(\.id),
                    version: try tx.listInfo("alice").version, count: try tx.listInfo("alice").callCount,
                    dave: Array(try tx.calls(in: "dave", at: 1)).map(\.id)
                )
            }
            #expect(stored.alice == ["a"])
            #expect(stored.version == 3)
            #expect(stored.count == 1)
            #expect(stored.dave == ["d"])
        }
    }

    /// SQLite runs a batch without savepoints first: a request that throws before it changed a row
    /// fails alone, and the batch runs once.
    @Test func aRequestThatThrowsBeforeWritingFailsAloneInOneRun() async throws {
        try await withStore(.sqlite) { store in
            _ = try await store.write { tx in try tx.insertCalls([makeCall("old", timestamp: 1)], into: "alice") }
            let results = await oneBatch(
                store,
                [
                    { tx in
                        try tx.insertCalls([makeCall("a", timestamp: 2)], into: "alice")
                        return "a"
                    },
                    { tx in
                        // Reads, and a delete that finds nothing live, change no row.
                        _ = try tx.deleteCalls(ids: ["nobody"], from: "alice")
                        guard try tx.call("zz", in: "alice") != nil else { throw Refused() }
                        return "found"
                    },
                    { tx in
                        try tx.insertCalls([makeCall("b", timestamp: 3)], into: "alice")
                        return "b"
                    },
                ])
            #expect(try results[0].get().versions == ["alice": 2])
            #expect(throws: Refused.self) { try results[1].get() }
            #expect(try results[2].get().versions == ["alice": 3])
            #expect(store.metrics.rerunBatches == 0)
            #expect(store.metrics.failedWrites == 1)
            let ids = try await store.read { tx in Array(try tx.calls(in: "alice", at: 3)).map(\.id) }
            #expect(ids == ["b", "a", "old"])
        }
    }

    /// One that throws after it changed rows cannot be undone alone without a savepoint: the batch
    /// is rolled back and runs again, each request under its own, so only that request's rows go.
    @Test func aRequestThatThrowsAfterWritingRerunsTheBatchUnderSavepoints() async throws {
        try await withStore(.sqlite) { store in
            let runs = Box(0)
            let results = await oneBatch(
                store,
                [
                    { tx in
                        runs.update { $0 += 1 }
                        try tx.insertCalls([makeCall("a", timestamp: 1)], into: "alice")
                        return "a"
                    },
                    { tx in
                        try tx.insertCalls([makeCall("half", timestamp: 2)], into: "alice")
                        try tx.setState(ListState(editing: true, revealedRowId: nil), of: "bob")
                        throw Refused()
                    },
                    { tx in
                        try tx.insertCalls([makeCall("b", timestamp: 3)], into: "alice")
                        return "b"
                    },
                ])
            #expect(runs.value == 2)
            #expect(store.metrics.rerunBatches == 1)
            #expect(try results[0].get().versions == ["alice": 1])
            #expect(throws: Refused.self) { try results[1].get() }
            #expect(try results[2].get().versions == ["alice": 2])
            let stored = try await store.read { tx in
                (
                    alice: Array(try tx.calls(in: "alice", at: try tx.listInfo("alice").version)).map(\.id),
                    count: try tx.listInfo("alice").callCount, bob: try tx.listInfo("bob")
                )
            }
            #expect(stored.alice == ["b", "a"])
            #expect(stored.count == 2)
            #expect(stored.bob.version == 0)
            #expect(!stored.bob.state.editing)
        }
    }
}
