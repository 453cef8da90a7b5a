import Foundation
import HTTPClient
import RecentsAPI
import RecentsTestSupport

@testable import RecentsStore

/// A database of one test's own on `backend`: a file in a temporary directory (SQLite) or a fresh
/// schema on the PostgreSQL test server, removed when the last server on it is gone. Several
/// `TestServer`s may share one: a restart, or two instances on one PostgreSQL database.
final class TestDatabase {
    let backend: Backend
    /// A temporary directory of the test's own (SQLite keeps its file here; tests may add files).
    let directory: URL
    /// What `--db` would name: the SQLite file, or the URI that selects the schema.
    let location: String
    /// The schema to drop when done, and the connection that made it (PostgreSQL only).
    private let schema: (name: String, admin: PGConnection)?

    init(_ backend: Backend) throws {
        self.backend = backend
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("recents-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        switch backend {
        case .sqlite:
            location = directory.appendingPathComponent("test.sqlite").path
            schema = nil
        case .postgresql:
            guard let url = Backend.postgresURL else { throw TestDatabaseError.noPostgresURL }
            // A schema rather than a database: CREATE SCHEMA is cheap, and since the epoch lives in
            // the schema, so does the notification channel (named after it): parallel tests share
            // no list, no epoch and no wake-up.
            let name = Backend.newSchemaName()
            let admin = try PGConnection(uri: url)
            try admin.execute("CREATE SCHEMA \(name)")
            location = Backend.uri(url, schema: name)
            schema = (name, admin)
        }
    }

    deinit {
        if let schema { _ = try? schema.admin.execute("DROP SCHEMA \(schema.name) CASCADE") }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Why a test database could not be made.
enum TestDatabaseError: Error {
    /// The PostgreSQL half ran without `RECENTS_TEST_POSTGRES_URL` (Backend.available excludes it).
    case noPostgresURL
}

/// A real server on a free loopback port with its own database on one back end, for end-to-end tests.
final class TestServer {
    let app: RecentsApp
    let database: TestDatabase
    var port: Int { app.port }
    var backend: Backend { database.backend }
    var directory: URL { database.directory }

    /// A server on a new database of `backend`.
    convenience init(_ backend: Backend, configure: (inout AppConfiguration) -> Void = { _ in }) throws {
        try self.init(on: TestDatabase(backend), configure: configure)
    }

    /// A server on `database`, which other servers may use before, after or at the same time.
    init(on database: TestDatabase, configure: (inout AppConfiguration) -> Void = { _ in }) throws {
        self.database = database
        var configuration = AppConfiguration()
        configuration.http.port = 0
        configuration.store.path = database.location
        configuration.logLevel = .warn
        configure(&configuration)
        app = try RecentsApp.start(configuration)
    }

    deinit {
        app.shutdown()
    }

    /// A new keep-alive connection to the server.
    func client() throws -> HTTPConnection { try HTTPConnection(port: port) }

    /// One request on a fresh connection.
    @discardableResult
    func request(
        _ method: String, _ target: String, body: String? = nil, headers: [(String, String)] = []
    ) throws -> TestResponse {
        try client().request(method, target, body: body, headers: headers)
    }
}

extension TestServer {
    /// Polls /metrics until `recents_parked_long_polls` equals `count`; false after 10 s.
    func waitForParked(_ count: Int) throws -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try request("GET", "/metrics").text.contains("recents_parked_long_polls \(count)\n") { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }
}

/// A call body for tests.
func callJSON(
    _ id: String, peer: String = "bob", name: String? = nil, direction: String = "incoming",
    endReason: String = "hangup", video: Bool = false, duration: Int = 0, timestamp: Int
) -> String {
    let nameMember = name.map { #", "name": "\#($0)""# } ?? ""
    return
        #"{"id": "\#(id)", "peer": {"id": "\#(peer)"\#(nameMember)}, "direction": "\#(direction)", "endReason": "\#(endReason)", "video": \#(video), "duration": \#(duration), "timestamp": \#(timestamp)}"#
}

/// Every value of a JSON object member as Int (Foundation gives NSNumber).
func int(_ value: Any?) -> Int? { (value as? NSNumber)?.intValue }
