import Foundation
import RecentsCore
import Testing

@testable import RecentsStore

/// What only the PostgreSQL back end has: several instances on one database, its migrations, its
/// connection errors. Runs when `RECENTS_TEST_POSTGRES_URL` is set (see `Backend`).
@Suite(.enabled(if: Backend.available.contains(.postgresql))) struct PostgreSQLTests {
    private func open(_ uri: String, migrations: [Migration] = Backend.postgresMigrations) throws -> PGListStore {
        try PGListStore.open(StoreConfiguration(path: uri), migrator: PGMigrator(migrations: migrations))
    }

    @Test func twoInstancesShareTheEpochAndNeverGiveAVersionTwice() async throws {
        try await withPostgresSchema { uri in
            let stores = [try open(uri), try open(uri)]
            defer { for store in stores { store.close() } }
            #expect(stores[0].epoch == stores[1].epoch)
            let lists = ["shared", "other"]
            let acknowledged = try await ConcurrentWrites.run(tasks: 8, perTask: 40) { task, index in
                let list = lists[index % 2]
                let outcome = try await stores[task % 2].write { transaction in
                    try transaction.insertCalls([makeCall("t\(task)-\(index)")], into: list)
                }
                return [(list, try #require(outcome.versions[list]))]
            }
            try await ConcurrentWrites.expectEveryVersionOnce(acknowledged, lists: lists, in: stores[1])
        }
    }

    @Test func aCommitOnOneInstanceReachesTheOtherInstancesOnCommit() async throws {
        try await withPostgresSchema { uri in
            let writer = try open(uri)
            let other = try open(uri)
            defer { for store in [writer, other] { store.close() } }
            let seen = Box<[String: Int64]>([:])
            let arrived = DispatchSemaphore(value: 0)
            TestObserver.subscribe(other) { versions in
                let done = seen.update { latest in
                    latest.merge(versions) { max($0, $1) }
                    return latest["alice"] == 1
                }
                if done { arrived.signal() }
            }
            // LISTEN is issued by the listener thread: a first notification proves it listens.
            let listening = try await Self.untilDelivered(writer, seen: seen)
            #expect(listening)
            _ = try await writer.write { try $0.insertCalls([makeCall("a2")], into: "alice") }
            let delivered = await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: arrived.wait(timeout: .now() + 10) == .success) }.start()
            }
            #expect(delivered, "instance B never heard of alice@1: \(seen.value)")
        }
    }

    /// Writes `probe` versions until the other instance has heard one (bounded: 500 writes).
    private static func untilDelivered(_ store: PGListStore, seen: Box<[String: Int64]>) async throws -> Bool {
        for _ in 0..<500 {
            _ = try await store.write { try $0.insertCalls([makeCall(UUID().uuidString)], into: "probe") }
            if seen.value["probe"] != nil { return true }
            await Task.yield()
        }
        return seen.value["probe"] != nil
    }

    @Test func crossListWritesInOppositeOrdersFromTwoInstancesAllSucceed() async throws {
        try await withPostgresSchema { uri in
            let stores = [try open(uri), try open(uri)]
            defer { for store in stores { store.close() } }
            // Instance 0 locks x then y, instance 1 y then x: deadlocks are possible, and must be
            // retried inside the store, never surfaced.
            let rounds = 60
            try await withThrowingTaskGroup(of: Void.self) { group in
                for side in 0..<2 {
                    group.addTask {
                        let order = side == 0 ? ["x", "y"] : ["y", "x"]
                        for round in 0..<rounds {
                            _ = try await stores[side].write { transaction in
                                for list in order {
                                    try transaction.insertCalls([makeCall("s\(side)-\(round)-\(list)")], into: list)
                                }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            for list in ["x", "y"] {
                let info = try await stores[0].read { try $0.listInfo(list) }
                #expect(info.version == Int64(2 * rounds))
                #expect(info.callCount == 2 * rounds)
            }
        }
    }

    @Test func migrationsApplyOnceAndRefuseAChangedFileOrANewerDatabase() async throws {
        try await withPostgresSchema { uri in
            let connection = try PGConnection(uri: uri)
            let migrator = PGMigrator(migrations: Backend.postgresMigrations)
            #expect(try migrator.migrate(connection).map(\.name) == Backend.postgresMigrations.map(\.name))
            #expect(try migrator.migrate(connection).isEmpty)
            let first = try #require(Backend.postgresMigrations.first)
            let edited = Migration(version: first.version, name: first.name, sql: first.sql + "\n-- edited\n")
            #expect(throws: MigrationError.self) {
                try PGMigrator(migrations: [edited] + Backend.postgresMigrations.dropFirst()).migrate(connection)
            }
            let newer = Migration(version: 999, name: "0999_newer.sql", sql: "CREATE TABLE newer (x int);")
            _ = try PGMigrator(migrations: Backend.postgresMigrations + [newer]).migrate(connection)
            #expect(throws: MigrationError.self) { try migrator.migrate(connection) }
        }
    }

    @Test func aFailingMigrationRollsBackItsDDLAndItsBookkeeping() async throws {
        try await withPostgresSchema { uri in
            let connection = try PGConnection(uri: uri)
            let bad = Migration(
                version: 999, name: "0999_bad.sql",
                sql: "CREATE TABLE half_done (x int); INSERT INTO nowhere VALUES (1);")
            #expect(throws: PGError.self) {
                try PGMigrator(migrations: Backend.postgresMigrations + [bad]).migrate(connection)
            }
            let tables = try connection.query("SELECT count(*) FROM pg_tables WHERE tablename = 'half_done'")
            #expect(try tables.int64(0, 0) == 0)
            let rows = try connection.query("SELECT count(*) FROM schema_migrations WHERE version = 999")
            #expect(try rows.int64(0, 0) == 0)
        }
    }

    @Test func aDuplicateLiveIdFailsWithAUniqueViolationThatNamesNoValue() async throws {
        try await withStore(.postgresql) { store in
            _ = try await store.write { try $0.insertCalls([makeCall("secret-id-42")], into: "alice") }
            do {
                _ = try await store.write { try $0.insertCalls([makeCall("secret-id-42")], into: "alice") }
                Issue.record("the duplicate was accepted")
            } catch let error as StoreError {
                #expect(error.isUniqueViolation)
                #expect(!error.description.contains("secret-id-42"), "\(error)")
                #expect(!error.description.contains("INSERT"), "\(error)")
            }
        }
    }

    @Test func anUnreachableServerIsASentenceWithoutThePassword() throws {
        // Port 1 on loopback: nothing listens there, so the connection is refused at once.
        let uri = "postgresql://someone:hunter2@127.0.0.1:1/recents?connect_timeout=2"
        do {
            _ = try PostgreSQLStore.open(StoreConfiguration(path: uri))
            Issue.record("opened a store on a closed port")
        } catch let error as StoreError {
            guard case .cannotOpen(let sentence) = error else {
                Issue.record("not cannotOpen: \(error)")
                return
            }
            #expect(sentence.hasPrefix("cannot open postgresql://someone:***@127.0.0.1:1/recents"), "\(sentence)")
            #expect(!sentence.contains("hunter2"))
        }
    }
}

/// What of the PostgreSQL back end needs no server: its embedded migrations, the NOTIFY format.
@Suite struct PostgreSQLOfflineTests {
    @Test func embeddedMigrationsEqualTheFilesInMigrationsPostgresql() throws {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Migrations/postgresql").path
        let onDisk = try PostgreSQLTests.loadMigrations(directory: directory).sorted { $0.version < $1.version }
        #expect(!onDisk.isEmpty)
        #expect(PGMigrations.embedded.map(\.version) == Array(1...onDisk.count))
        #expect(PGMigrations.embedded == onDisk)
        // And none of them is taken for a SQLite migration.
        #expect(Migrator.embedded.allSatisfy { !$0.name.contains("/") && $0.version > 0 })
    }

    @Test func notificationPayloadsStayUnderTheLimitAndRoundTrip() {
        var versions: [String: Int64] = [:]
        for index in 0..<2000 { versions["list-\(index)"] = Int64(index * 1000 + 7) }
        let payloads = PGNotifications.payloads(versions)
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.utf8.count < 8000 })
        var parsed: [String: Int64] = [:]
        for payload in payloads { parsed.merge(PGNotifications.parse(payload)) { max($0, $1) } }
        #expect(parsed == versions)
    }
}

extension PostgreSQLTests {
    /// The migrations in a `Migrations/postgresql` folder on disk, to check the embedded copy
    /// against the tree (test-only: the server reads only what it embeds, and links no Foundation).
    static func loadMigrations(directory: String) throws -> [Migration] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".sql") }
        return PGMigrations.fromFiles(
            try names.map { name in
                let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
                return ("postgresql/" + name, [UInt8](data))
            })
    }
}
