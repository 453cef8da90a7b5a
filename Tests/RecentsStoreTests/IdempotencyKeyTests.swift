import Foundation
import RecentsCore
import Testing

@testable import RecentsStore

@Suite struct IdempotencyKeyTests {
    static let reply = IdempotentReply(
        fingerprint: IdempotentReply.fingerprint(of: Array("{}".utf8)), status: 201, body: Array("{\"version\":1}".utf8)
    )

    /// Ages every recorded key by `seconds` (white-box, on the writer).
    static func age(_ store: SQLiteListStore, by seconds: Int64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            _ = store.onWriter { context in
                _ = try? context.connection.run("UPDATE idempotency_keys SET created_at = created_at - ?", seconds)
                continuation.resume()
            }
        }
    }

    @Test func aReplyIsRecordedWithTheWriteAndFoundByListAndKey() async throws {
        try await withStore { store in
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

    @Test func aBodyThatThrowsRecordsNothing() async throws {
        struct Refused: Error {}
        try await withStore { store in
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

    @Test func keysOlderThan24HoursAreIgnoredThenPrunedAndForgetDropsThem() async throws {
        try await withStore { store in
            _ = try await store.write { tx in
                try tx.recordIdempotentReply(Self.reply, key: "old", in: "alice")
                try tx.recordIdempotentReply(Self.reply, key: "kept", in: "bob")
                try tx.insertCalls([makeCall("c1")], into: "carol")
                try tx.recordIdempotentReply(Self.reply, key: "forgotten", in: "carol")
            }
            await Self.age(store, by: 0)
            #expect(try await queryInts(store, "SELECT count(*) FROM idempotency_keys") == [3])
            _ = try await store.write { tx in try tx.forgetList("carol") }
            #expect(try await queryInts(store, "SELECT count(*) FROM idempotency_keys") == [2])

            // Age only alice's key past the window.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                _ = store.onWriter { context in
                    _ = try? context.connection.run(
                        "UPDATE idempotency_keys SET created_at = created_at - ? WHERE list = 'alice'",
                        IdempotentReply.retentionSeconds + 1)
                    continuation.resume()
                }
            }
            #expect(try await store.write { tx in try tx.idempotentReply(key: "old", in: "alice") }.value == nil)
            try await store.pruneNow()
            #expect(try await queryInts(store, "SELECT count(*) FROM idempotency_keys") == [1])
            #expect(try await store.write { tx in try tx.idempotentReply(key: "kept", in: "bob") }.value == Self.reply)
        }
    }
}
