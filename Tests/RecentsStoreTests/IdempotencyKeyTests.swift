import Foundation
import RecentsCore
import Testing

@testable import RecentsStore

@Suite struct IdempotencyKeyTests {
    static let reply = IdempotentReply(
        fingerprint: IdempotentReply.fingerprint(of: Array("{}".utf8)), status: 201, body: Array("{\"version\":1}".utf8)
    )

    @Test(arguments: Backend.available) func aReplyIsRecordedWithTheWriteAndFoundByListAndKey(
        backend: Backend
    ) async throws {
        try await withStore(backend) { store in
            _ = try await store.write { tx in
                try tx.insertCalls([makeCall("c1")], into: "alice")
                try tx.recordIdempotentReply(Self.reply, key: "k", in: "alice")
            }
            let found = try await store.write { tx in
                (try tx.idempotentReply(key: "k", in: "alice"), try tx.idempotentReply(key: "k", in: "bob"))
            }.value
            #expect(found.0 == Self.reply)
            #expect(found.1 == nil)
            #expect(found.0?.body == Self.reply.body)
        }
    }

    @Test(arguments: Backend.available) func aBodyThatThrowsRecordsNothing(backend: Backend) async throws {
        struct Refused: Error {}
        try await withStore(backend) { store in
            await #expect(throws: Refused.self) {
                _ = try await store.write { tx in
                    try tx.recordIdempotentReply(Self.reply, key: "k", in: "alice")
                    throw Refused()
                }
            }
            let found = try await store.write { tx in try tx.idempotentReply(key: "k", in: "alice") }
            #expect(found.value == nil)
        }
    }

    @Test(arguments: Backend.available) func keysOlderThan24HoursAreIgnoredThenPrunedAndForgetDropsThem(
        backend: Backend
    ) async throws {
        try await withStore(backend) { store in
            _ = try await store.write { tx in
                try tx.recordIdempotentReply(Self.reply, key: "old", in: "alice")
                try tx.recordIdempotentReply(Self.reply, key: "kept", in: "bob")
                try tx.insertCalls([makeCall("c1")], into: "carol")
                try tx.recordIdempotentReply(Self.reply, key: "forgotten", in: "carol")
            }
            #expect(try await queryInts(store, "SELECT count(*) FROM idempotency_keys") == [3])
            _ = try await store.write { tx in try tx.forgetList("carol") }
            #expect(try await queryInts(store, "SELECT count(*) FROM idempotency_keys") == [2])

            // Age only alice's key past the window.
            await executeOnWriter(
                store,
                "UPDATE idempotency_keys SET created_at = created_at - \(IdempotentReply.retentionSeconds + 1) WHERE list = 'alice'"
            )
            #expect(try await store.write { tx in try tx.idempotentReply(key: "old", in: "alice") }.value == nil)
            try await store.pruneNow()
            #expect(try await queryInts(store, "SELECT count(*) FROM idempotency_keys") == [1])
            #expect(try await store.write { tx in try tx.idempotentReply(key: "kept", in: "bob") }.value == Self.reply)
        }
    }

    @Test(arguments: Backend.available) func expiredKeysArePrunedInChunksUntilNoneIsLeft(backend: Backend) async throws
    {
        try await withStore(backend) { store in
            let keys = 2 * Pruner<SQLiteConnection>.idleBudget + 10
            _ = try await store.write { tx in
                // Over several lists: one list keeps at most `IdempotentReply.keysPerList`.
                for index in 0..<keys {
                    try tx.recordIdempotentReply(Self.reply, key: "k\(index)", in: "alice-\(index % 8)")
                }
                try tx.recordIdempotentReply(Self.reply, key: "fresh", in: "bob")
            }
            await executeOnWriter(
                store,
                "UPDATE idempotency_keys SET created_at = created_at - \(IdempotentReply.retentionSeconds + 1) WHERE list LIKE 'alice-%'"
            )
            // More keys than one chunk removes: pruning takes several, and keeps the fresh one.
            try await store.pruneNow()
            #expect(try await queryInts(store, "SELECT count(*) FROM idempotency_keys") == [1])
            #expect(store.metrics.prunedRows >= keys)
            #expect(try await store.write { tx in try tx.idempotentReply(key: "fresh", in: "bob") }.value == Self.reply)
        }
    }

    @Test(arguments: Backend.available) func aListKeepsItsNewestKeysOnlyAndOtherListsAreLeftAlone(
        backend: Backend
    ) async throws {
        try await withStore(backend) { store in
            let bound = IdempotentReply.keysPerList
            _ = try await store.write { tx in try tx.recordIdempotentReply(Self.reply, key: "bob's", in: "bob") }
            _ = try await store.write { tx in
                for index in 0..<bound { try tx.recordIdempotentReply(Self.reply, key: "k\(index)", in: "alice") }
            }
            // Older than the batch above: the one to go when the list passes its bound.
            await executeOnWriter(
                store, "UPDATE idempotency_keys SET created_at = created_at - 10 WHERE list = 'alice' AND key = 'k7'")
            #expect(
                try await queryInts(store, "SELECT count(*) FROM idempotency_keys WHERE list = 'alice'") == [
                    Int64(bound)
                ])
            _ = try await store.write { tx in try tx.recordIdempotentReply(Self.reply, key: "one more", in: "alice") }
            #expect(
                try await queryInts(store, "SELECT count(*) FROM idempotency_keys WHERE list = 'alice'") == [
                    Int64(bound)
                ])
            let found = try await store.write { tx in
                (
                    try tx.idempotentReply(key: "k7", in: "alice"),
                    try tx.idempotentReply(key: "one more", in: "alice"),
                    try tx.idempotentReply(key: "bob's", in: "bob")
                )
            }.value
            #expect(found.0 == nil)
            #expect(found.1 == Self.reply)
            #expect(found.2 == Self.reply)
        }
    }

    @Test(arguments: Backend.available) func aRecipeIsKeptAsARecipe(backend: Backend) async throws {
        try await withStore(backend) { store in
            let recipe = IdempotentReply(
                fingerprint: Self.reply.fingerprint, status: 201, body: Array("7 c-0h3kq8v2x1mz".utf8), form: .recipe)
            _ = try await store.write { tx in try tx.recordIdempotentReply(recipe, key: "k", in: "alice") }
            #expect(try await store.write { tx in try tx.idempotentReply(key: "k", in: "alice") }.value == recipe)
        }
    }
}
