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
            let perTask = 30
            // Every task writes the hot list and one other, and every third write also touches
            // two lists at once in a descending order, so batches lock out of order and retry.
            let acknowledged = try await withThrowingTaskGroup(of: [(String, Int64)].self) { group in
                for task in 0..<12 {
                    group.addTask {
                        var mine: [(String, Int64)] = []
                        for index in 0..<perTask {
                            let targets =
                                index % 3 == 0
                                ? [lists[1 + task % 3], "hot"] : [lists[index % 2 == 0 ? 0 : 1 + task % 3]]
                            let outcome = try await store.write { transaction in
                                for list in targets.sorted(by: >) {
                                    try transaction.insertCalls([makeCall("t\(task)-\(index)-\(list)")], into: list)
                                }
                            }
                            for list in targets { mine.append((list, try #require(outcome.versions[list]))) }
                        }
                        return mine
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            for list in lists {
                let versions = acknowledged.filter { $0.0 == list }.map(\.1).sorted()
                #expect(versions == Array(1...Int64(versions.count)), "\(list): a version repeated or skipped")
                let info = try await store.read { try $0.listInfo(list) }
                #expect(info.version == Int64(versions.count))
                #expect(info.callCount == versions.count)
            }
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
