import RecentsCore
import Testing

@testable import RecentsStore

/// Several writer connections in one PostgreSQL instance (`StoreConfiguration.writers`): their
/// batches overlap, and every rule still holds. Runs when `RECENTS_TEST_POSTGRES_URL` is set.
@Suite(.enabled(if: Backend.available.contains(.postgresql))) struct PostgreSQLWritersTests {
    private func open(_ uri: String, writers: Int) throws -> PGListStore {
        try PGListStore.open(
            StoreConfiguration(path: uri, writers: writers),
            migrator: PGMigrator(migrations: Backend.postgresMigrations))
    }

    @Test func concurrentWritesOverSeveralWritersGiveEveryVersionOnce() async throws {
        try await withPostgresSchema { uri in
            let store = try open(uri, writers: 3)
            defer { store.close() }
            let lists = ["hot", "a", "b", "c"]
            // Every task writes the hot list and one other, and every third write also touches
            // two lists at once in a descending order, so batches lock out of order and retry.
            let acknowledged = try await ConcurrentWrites.run(tasks: 12, perTask: 30) { task, index in
                let targets =
                    index % 3 == 0
                    ? [lists[1 + task % 3], "hot"] : [lists[index % 2 == 0 ? 0 : 1 + task % 3]]
                let outcome = try await store.write { transaction in
                    for list in targets.sorted(by: >) {
                        try transaction.insertCalls([makeCall("t\(task)-\(index)-\(list)")], into: list)
                    }
                }
                return try targets.map { list in (list, try #require(outcome.versions[list])) }
            }
            try await ConcurrentWrites.expectEveryVersionOnce(acknowledged, lists: lists, in: store)
        }
    }

    @Test func oneIdempotencyKeyPostedAtOnceToSeveralWritersWritesOnce() async throws {
        try await withPostgresSchema { uri in
            let store = try open(uri, writers: 4)
            defer { store.close() }
            let reply = IdempotentReply(fingerprint: "f", status: 201, body: Array("{}".utf8))
            // The API's idempotent write, as RecentsService runs it: look up, else write and record.
            let replayed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for attempt in 0..<16 {
                    group.addTask {
                        try await store.write { transaction in
                            if try transaction.idempotentReply(key: "k", in: "idem") != nil { return true }
                            try transaction.insertCalls([makeCall("c\(attempt)")], into: "idem")
                            try transaction.recordIdempotentReply(reply, key: "k", in: "idem")
                            return false
                        }.value
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(replayed.filter { !$0 }.count == 1, "the key was written more than once")
            let info = try await store.read { try $0.listInfo("idem") }
            #expect(info.version == 1)
            #expect(info.callCount == 1)
        }
    }

    @Test func zeroWritersIsRefused() {
        #expect(throws: StoreError.self) { try open("postgresql://127.0.0.1:1/none", writers: 0) }
    }
}
