import Foundation
import RecentsCore
import RecentsTestSupport
import Testing

@testable import RecentsStore

/// The shared back-end list (RecentsTestSupport), under the name every file of this suite uses.
typealias Backend = RecentsTestSupport.Backend

extension Backend {
    /// The PostgreSQL migrations the binary embeds (compared with the tree's files by
    /// `PostgreSQLOfflineTests`).
    static let postgresMigrations = PGMigrations.embedded
}

/// A store on a fresh database of `backend`, closed (and removed) after `body`. PostgreSQL gets
/// two writer connections, so every shared test runs over overlapping batches; a test that parks
/// the writer (`WriterGate`) asks for one.
func withStore<R>(
    _ backend: Backend, retainVersions: Int = 1000, readers: Int = 2, maxBatchSize: Int = 256,
    writers: Int = 2, _ body: (any ListStore) async throws -> R
) async throws -> R {
    switch backend {
    case .sqlite:
        return try await withTemporaryDirectory { directory in
            let store = try SQLiteListStore.open(
                StoreConfiguration(
                    path: directory + "/store.sqlite", retainVersions: retainVersions, readers: readers,
                    maxBatchSize: maxBatchSize))
            defer { store.close() }
            return try await body(store)
        }
    case .postgresql:
        return try await withPostgresSchema { uri in
            let store = try PGListStore.open(
                StoreConfiguration(
                    path: uri, retainVersions: retainVersions, readers: readers, maxBatchSize: maxBatchSize,
                    writers: writers),
                migrator: PGMigrator(migrations: Backend.postgresMigrations))
            defer { store.close() }
            return try await body(store)
        }
    }
}

/// A URI for a fresh, empty schema on the test server (first on the connection's search path),
/// dropped after `body`: one server serves every test at once without them seeing each other.
func withPostgresSchema<R>(_ body: (String) async throws -> R) async throws -> R {
    let url = try #require(Backend.postgresURL)
    // Each store holds several connections; bounding the tests on the server at once keeps them
    // under its max_connections however many run in parallel.
    await PostgresSlots.shared.acquire()
    defer { Task { await PostgresSlots.shared.release() } }
    let schema = Backend.newSchemaName()
    let admin = try PGConnection(uri: url)
    // The name is generated above from hex digits only; identifiers cannot be bound as values.
    try admin.execute("CREATE SCHEMA \(schema)")
    defer { _ = try? admin.execute("DROP SCHEMA \(schema) CASCADE") }
    return try await body(Backend.uri(url, schema: schema))
}

/// Raw SQL for white-box checks, on either back end: the first column of every row.
func queryInts(_ store: any ListStore, _ sql: String) async throws -> [Int64] {
    if let store = store as? SQLiteListStore { return try await queryInts(store, sql) }
    let store = try #require(store as? PGListStore)
    return try await store.readTransaction { transaction in
        let result = try transaction.connection.query(sql)
        return try (0..<result.count).map { try result.int64($0, 0) }
    }
}

/// The SQL of the larger of several values on `store`'s engine (SQLite's `max`, PostgreSQL's
/// `GREATEST`), for white-box queries shared by both.
func greatest(_ store: any ListStore) -> String { store is PGListStore ? "GREATEST" : "max" }

/// At most `limit` tests on the PostgreSQL server at once (a counting semaphore for tasks).
actor PostgresSlots {
    static let shared = PostgresSlots(limit: 6)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { free = limit }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// Runs `sql` (no parameters) on `store`'s writer connection between batches, on either back end
/// (white-box: aging rows, breaking things on purpose).
func executeOnWriter(_ store: any ListStore, _ sql: String) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let submitted: Bool
        if let store = store as? SQLiteListStore {
            submitted = store.onWriter { context in
                try? context.connection.execute(sql)
                continuation.resume()
            }
        } else if let store = store as? PGListStore {
            submitted = store.onWriter { context in
                _ = try? context.link.connection.execute(sql)
                continuation.resume()
            }
        } else {
            submitted = false
        }
        if !submitted { continuation.resume() }
    }
}
