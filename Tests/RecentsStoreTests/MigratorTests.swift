import Foundation
import RecentsCrypto
import RecentsTestSupport
import Testing

@testable import RecentsStore

@Suite struct MigratorTests {
    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256.hex(Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hex(long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex([UInt8](repeating: 0x61, count: 1000))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    /// Pinned to what the hand-written SHA-256 this tree used before libcrypto recorded, so
    /// databases migrated by older binaries still open.
    @Test func shippedChecksumsAreUnchangedSinceTheyWereRecorded() {
        let recorded = [
            "0001_initial_schema.sql": "6105e6d723f49b237f906a39c7a33ce57babde205c40aa4d3e66c522a73dbf9b",
            "0002_one_view_index.sql": "3bbfe266334cc5bdb1ad23c87a7330dc2a7584a2b1ec76356e4a4dc5026c8037",
        ]
        for migration in Migrator.embedded {
            if let checksum = recorded[migration.name] { #expect(migration.checksum == checksum, "\(migration.name)") }
        }
        #expect(Migrator.embedded.filter { recorded[$0.name] != nil }.count == recorded.count)
    }

    @Test func embeddedMigrationsEqualTheFilesInMigrations() throws {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Migrations")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(!names.isEmpty)
        #expect(Migrator.embedded.map(\.name) == names)
        #expect(Migrator.embedded.map(\.version) == Array(1...names.count))
        for migration in Migrator.embedded {
            let data = try Data(contentsOf: directory.appendingPathComponent(migration.name))
            #expect(Array(migration.sql.utf8) == [UInt8](data), "\(migration.name) differs from its file")
            #expect(migration.checksum == SHA256.hex([UInt8](data)))
        }
    }

    @Test func freshDatabaseGetsEveryMigrationAndARerunIsANoOp() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/m.sqlite"
            let applied = try SQLiteStore.migrate(StoreConfiguration(path: path))
            #expect(applied.map(\.name) == Migrator.embedded.map(\.name))
            #expect(applied.map(\.checksum) == Migrator.embedded.map(\.checksum))
            #expect(try SQLiteStore.migrate(StoreConfiguration(path: path)).isEmpty)
            let connection = try SQLiteConnection(path: path)
            #expect(try connection.queryInt("SELECT count(*) FROM schema_migrations") == Int64(Migrator.embedded.count))
            #expect(try connection.queryInt("SELECT count(*) FROM sqlite_master WHERE name = 'calls'") == 1)
            #expect(try connection.queryText("SELECT applied_at FROM schema_migrations WHERE version = 1") != nil)
        }
    }

    @Test func aFailingMigrationRollsBackItsDDLAndItsBookkeeping() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/m.sqlite"
            let bad = Migration(
                version: 999, name: "0999_bad.sql",
                sql: "CREATE TABLE half_done (x INTEGER) STRICT; INSERT INTO no_such_table VALUES (1);")
            let migrator = Migrator(migrations: Migrator.embedded + [bad])
            #expect(throws: SQLiteError.self) { try migrator.migrate(SQLiteConnection(path: path)) }
            let connection = try SQLiteConnection(path: path)
            #expect(try connection.queryInt("SELECT count(*) FROM sqlite_master WHERE name = 'half_done'") == 0)
            #expect(try connection.queryInt("SELECT count(*) FROM schema_migrations WHERE version = 999") == 0)
            // The good migrations before it stay applied; the binary's own set opens fine.
            #expect(try connection.queryInt("SELECT count(*) FROM schema_migrations") == Int64(Migrator.embedded.count))
            let store = try SQLiteListStore.open(StoreConfiguration(path: path))
            store.close()
        }
    }

    @Test func aChangedChecksumRefusesToOpen() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/m.sqlite"
            _ = try SQLiteStore.migrate(StoreConfiguration(path: path))
            var edited = Migrator.embedded
            edited[0] = Migration(
                version: edited[0].version, name: edited[0].name, sql: edited[0].sql + "\n-- edited\n")
            do {
                _ = try Migrator(migrations: edited).migrate(SQLiteConnection(path: path))
                Issue.record("an edited migration was accepted")
            } catch let error as MigrationError {
                #expect(error.description.contains(Migrator.embedded[0].name))
                #expect(error.description.contains("checksum"))
            }
        }
    }

    @Test func aDatabaseFromANewerBinaryRefusesToOpen() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/m.sqlite"
            let newer = Migration(version: 500, name: "0500_future.sql", sql: "CREATE TABLE future (x INTEGER) STRICT;")
            _ = try Migrator(migrations: Migrator.embedded + [newer]).migrate(SQLiteConnection(path: path))
            do {
                _ = try SQLiteListStore.open(StoreConfiguration(path: path))
                Issue.record("a database with an unknown migration was opened")
            } catch let error as MigrationError {
                #expect(error.description.contains("0500_future.sql"))
                #expect(error.description.contains("newer"))
            }
        }
    }

    /// The shipped binary embeds its migrations: run from a directory far from Migrations/, with a
    /// relative path, it creates and migrates the database there. A child process of its own, since
    /// changing this process's working directory would move every test running beside this one.
    @Test func opensFromAnotherWorkingDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let run = try RecentsExecutable.run(
                ["migrate", "--db", "relative.sqlite"], in: URL(fileURLWithPath: directory))
            #expect(run.status == 0, "recents migrate: \(run.output)")
            let path = directory + "/relative.sqlite"
            #expect(FileManager.default.fileExists(atPath: path))
            let applied = try Migrator().applied(SQLiteConnection(path: path))
            #expect(applied.keys.sorted() == Migrator.embedded.map(\.version))
            let store = try SQLiteListStore.open(StoreConfiguration(path: path))
            let outcome = try await store.write { try $0.insertCalls([makeCall("c1")], into: "alice") }
            #expect(outcome.versions == ["alice": 1])
            store.close()
        }
    }

    @Test func epochIsFixedWhenTheDatabaseIsCreated() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/e.sqlite"
            let first = try SQLiteListStore.open(StoreConfiguration(path: path))
            let epoch = first.epoch
            first.close()
            #expect(epoch.count == 8)
            #expect(epoch.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) })
            let second = try SQLiteListStore.open(StoreConfiguration(path: path))
            #expect(second.epoch == epoch)
            second.close()
        }
    }
}
