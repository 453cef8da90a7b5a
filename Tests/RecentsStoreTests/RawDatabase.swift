import RecentsCore
import RecentsTestSupport
import SystemSupport
import Testing

@testable import RecentsStore

/// A migrated, empty database of one engine, written to by raw SQL and pruned by a `Pruner` of
/// the test's own, with no store threads running.
final class RawDatabase {
    let backend: Backend
    let location: String
    private let sqlite: SQLiteConnection?
    private let link: PGLink?
    private let pruner = Pruner<SQLiteConnection>(
        shared: StoreShared(retainVersions: 1000, logger: Logger(level: .warn)))
    private let pgPruner = Pruner<PGLink>(shared: StoreShared(retainVersions: 1000, logger: Logger(level: .warn)))

    init(_ backend: Backend, location: String) throws {
        self.backend = backend
        self.location = location
        switch backend {
        case .sqlite:
            sqlite = try SQLiteConnection(path: location)
            link = nil
        case .postgresql:
            sqlite = nil
            let logger = Logger(level: .warn)
            link = PGLink(
                try PGConnection(uri: location), role: "test", logger: logger, reconnects: PGReconnects(logger: logger))
        }
    }

    var no: String { backend == .sqlite ? "0" : "false" }
    var yes: String { backend == .sqlite ? "1" : "true" }

    func execute(_ sql: String) throws {
        if let sqlite { try sqlite.execute(sql) } else { _ = try link?.connection.execute(sql) }
    }

    /// `body` in a read transaction on this database's own connection, while no pruner runs.
    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        if let sqlite { return try SQLiteReadTransaction.perform(on: sqlite, retainVersions: 1000) { try body($0) } }
        return try PGReadTransaction.perform(on: try #require(link).connection, retainVersions: 1000) { try body($0) }
    }

    /// What the cleanup tests find after a crash, in list 1: 250 missed calls "old-0"…"old-249"
    /// created at versions 1...9 (`n % 9 + 1`), and "new" created at 11.
    func insertOldCallsAndNew() throws {
        let old = (0..<250).map {
            "(1, 'old-\($0)', 'bob', 'Bob', 'incoming', 'missed', \(no), 0, \(1_700_000_000 + $0), \(yes), \($0 % 9 + 1))"
        }
        try execute(
            """
            INSERT INTO calls (list_id, call_id, peer_id, peer_name, direction, end_reason, video, duration,
                               "timestamp", missed, created_version)
            VALUES \(old.joined(separator: ", ")),
                   (1, 'new', 'bob', 'Bob', 'outgoing', 'hangup', \(no), 5, 1600000000, \(no), 11);
            """)
    }

    func ints(_ sql: String) throws -> [Int64] {
        if let sqlite {
            return try sqlite.with(sql) { statement in
                var values: [Int64] = []
                while try statement.step() { values.append(statement.int64(0)) }
                return values
            }
        }
        let result = try #require(link).connection.query(sql)
        return try (0..<result.count).map { try result.int64($0, 0) }
    }

    /// One pruning chunk of at most `budget` rows; the rows it removed.
    func pruneStep(budget: Int) throws -> Int? {
        if let sqlite {
            pruner.scanAll()
            return pruner.step(sqlite, budget: budget, ownTransaction: true)
        }
        pgPruner.scanAll()
        return pgPruner.step(try #require(link), budget: budget, ownTransaction: true)
    }

    /// A store on this database (this object's connection stays open but idle).
    func withStore(_ body: (any ListStore) async throws -> Void) async throws {
        switch backend {
        case .sqlite:
            let store = try SQLiteListStore.open(StoreConfiguration(path: location))
            defer { store.close() }
            try await body(store)
        case .postgresql:
            let store = try PGListStore.open(
                StoreConfiguration(path: location), migrator: PGMigrator(migrations: Backend.postgresMigrations))
            defer { store.close() }
            try await body(store)
        }
    }
}

/// A fresh database of `backend`, migrated by opening a store on it once.
func withDatabase(_ backend: Backend, _ body: (RawDatabase) async throws -> Void) async throws {
    switch backend {
    case .sqlite:
        try await withTemporaryDirectory { directory in
            let path = directory + "/store.sqlite"
            try SQLiteListStore.open(StoreConfiguration(path: path)).close()
            try await body(try RawDatabase(backend, location: path))
        }
    case .postgresql:
        try await withPostgresSchema { uri in
            try PGListStore.open(
                StoreConfiguration(path: uri), migrator: PGMigrator(migrations: Backend.postgresMigrations)
            ).close()
            try await body(try RawDatabase(backend, location: uri))
        }
    }
}
