import Foundation
import Testing

@testable import RecentsStore

/// The epoch of a restored database (issue 39): a copy made by `backup` gets a new one on its
/// first open, `Store.renewEpoch` gives any database a new one, and nothing else changes it.
@Suite struct EpochTests {
    /// Runs `body` with a location of `backend` whose database exists (migrated, with an epoch),
    /// a way to open it, and a way to run raw SQL on it.
    func withDatabase(
        _ backend: Backend,
        _ body: (_ location: String, _ open: () throws -> any ListStore, _ sql: (String) throws -> Void) async throws
            -> Void
    ) async throws {
        switch backend {
        case .sqlite:
            try await withTemporaryDirectory { directory in
                let path = directory + "/epoch.sqlite"
                try SQLiteListStore.open(path: path).close()
                try await body(
                    path, { try SQLiteListStore.open(StoreConfiguration(path: path)) },
                    { try SQLiteConnection(path: path).execute($0) })
            }
        case .postgresql:
            try await withPostgresSchema { uri in
                let open = {
                    try PGListStore.open(
                        StoreConfiguration(path: uri), migrator: PGMigrator(migrations: Backend.postgresMigrations))
                }
                try open().close()
                let connection = try PGConnection(uri: uri)
                try await body(uri, open, { _ = try connection.execute($0) })
            }
        }
    }

    /// The epoch a fresh open of the database answers under.
    func epoch(_ open: () throws -> any ListStore) throws -> String {
        let store = try open()
        defer { store.close() }
        return store.epoch
    }

    @Test(arguments: Backend.available) func aMarkedDatabaseGetsANewEpochOnItsFirstOpenOnly(backend: Backend)
        async throws
    {
        try await withDatabase(backend) { _, open, sql in
            let before = try epoch(open)
            #expect(try epoch(open) == before, "an open without a mark keeps the epoch")
            try sql("INSERT INTO meta (key, value) VALUES ('epoch-renewal', '2026-01-01T00:00:00Z')")
            let renewed = try epoch(open)
            #expect(renewed != before && renewed.count == 8)
            #expect(try epoch(open) == renewed, "the mark went with the first open")
        }
    }

    @Test(arguments: Backend.available) func renewingGivesANewEpochEachTimeAndClearsAMark(backend: Backend)
        async throws
    {
        try await withDatabase(backend) { location, open, sql in
            let before = try epoch(open)
            let first = try Store.renewEpoch(StoreConfiguration(path: location))
            #expect(first.previous == before && first.current != before)
            try sql("INSERT INTO meta (key, value) VALUES ('epoch-renewal', 'x')")
            let second = try Store.renewEpoch(StoreConfiguration(path: location))
            #expect(second.previous == first.current && second.current != first.current)
            #expect(try epoch(open) == second.current, "the mark went with the renewal: no second change")
        }
    }

    @Test func renewingRefusesAMissingDatabaseAndCreatesNone() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/typo.sqlite"
            #expect(throws: StoreError.cannotOpen("no database at \(path)")) {
                try Store.renewEpoch(StoreConfiguration(path: path))
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test(.enabled(if: Backend.available.contains(.postgresql)))
    func renewingRefusesAPostgreSQLDatabaseWithoutRecents() async throws {
        try await withPostgresSchema { uri in
            #expect(throws: StoreError.self) { try Store.renewEpoch(StoreConfiguration(path: uri)) }
            let tables = try PGConnection(uri: uri).query("SELECT to_regclass('meta') IS NULL").bool(0, 0)
            #expect(tables, "nothing was created")
        }
    }

    @Test func aBackupIsMarkedAndTheLiveDatabaseIsNot() async throws {
        try await withTemporaryDirectory { directory in
            let live = directory + "/live.sqlite"
            let store = try SQLiteListStore.open(path: live)
            let epoch = store.epoch
            let copy = directory + "/copy.sqlite"
            try SQLiteStore.backup(StoreConfiguration(path: live), to: copy)
            store.close()
            let copyConnection = try SQLiteConnection(path: copy, readOnly: true)
            #expect(try copyConnection.queryText("SELECT value FROM meta WHERE key = 'epoch-renewal'") != nil)
            #expect(try copyConnection.queryText("SELECT value FROM meta WHERE key = 'epoch'") == epoch)
            let restored = try SQLiteListStore.open(path: copy)
            #expect(restored.epoch != epoch)
            restored.close()
            #expect(try SQLiteListStore.open(path: live).closing(\.epoch) == epoch, "the live database keeps its epoch")
        }
    }

    @Test func migrateRenewsAMarkedCopyAsAServerWould() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/m.sqlite"
            let epoch = try SQLiteListStore.open(path: path).closing(\.epoch)
            try SQLiteConnection(path: path).markCopy(madeAt: "now")
            #expect(try SQLiteStore.migrate(StoreConfiguration(path: path)).isEmpty)
            let renewed = try SQLiteListStore.open(path: path).closing(\.epoch)
            #expect(renewed != epoch)
            #expect(try SQLiteListStore.open(path: path).closing(\.epoch) == renewed)
        }
    }

    @Test(.enabled(if: Backend.available.contains(.postgresql)))
    func instancesOpeningAMarkedDatabaseAtOnceAgreeOnOneNewEpoch() async throws {
        try await withPostgresSchema { uri in
            let configuration = StoreConfiguration(path: uri)
            let migrator = PGMigrator(migrations: Backend.postgresMigrations)
            let before = try PGListStore.open(configuration, migrator: migrator).closing(\.epoch)
            _ = try PGConnection(uri: uri).execute("INSERT INTO meta (key, value) VALUES ('epoch-renewal', 'x')")
            let epochs = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<4 {
                    group.addTask { try PGListStore.open(configuration, migrator: migrator).closing(\.epoch) }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(epochs.count == 1 && !epochs.contains(before), "\(epochs)")
        }
    }
}

extension ListStore {
    /// `value` of the store, which is closed afterwards.
    fileprivate func closing<T>(_ value: KeyPath<Self, T>) -> T {
        defer { close() }
        return self[keyPath: value]
    }
}

extension SQLiteListStore {
    /// Opens the SQLite store at `path` with the default configuration.
    fileprivate static func open(path: String) throws -> SQLiteListStore {
        try SQLiteListStore.open(StoreConfiguration(path: path))
    }
}
