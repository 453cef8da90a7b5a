import Foundation
import HTTPClient
import HTTPServer
import RecentsAuth
import RecentsTestSupport

@testable import RecentsAPI
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

    /// A database on `backend`; for PostgreSQL on the server `postgresURL` names (by default the
    /// shared test server).
    init(_ backend: Backend, postgresURL: String? = nil) throws {
        self.backend = backend
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("recents-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        switch backend {
        case .sqlite:
            location = directory.appendingPathComponent("test.sqlite").path
            schema = nil
        case .postgresql:
            guard let url = postgresURL ?? Backend.postgresURL else { throw TestDatabaseError.noPostgresURL }
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

/// A Recents service on its own database of one back end, for endpoint tests: in process by
/// default (the request goes straight into the pipeline through `InProcessConnection`: no port,
/// no event loop), or on a real loopback socket with `socket: true` for what only a connection
/// shows (keep-alive, framing, streams read off the wire, the server's own 4xx, restarts).
final class TestServer {
    private let socketApp: RecentsApp?
    private let inProcess: InProcessApp?
    let database: TestDatabase
    var backend: Backend { database.backend }
    var directory: URL { database.directory }
    /// The database's epoch.
    var epoch: String { socketApp?.epoch ?? inProcess?.epoch ?? "" }
    /// The store, for white-box tests.
    var store: any ListStore {
        if let socketApp { return socketApp.store }
        guard let inProcess else { preconditionFailure("no app") }
        return inProcess.store
    }

    /// The socket server (fails the test run on an in-process one: ask for `socket: true`).
    var app: RecentsApp {
        guard let socketApp else { preconditionFailure("this test needs TestServer(..., socket: true)") }
        return socketApp
    }
    var port: Int { app.port }
    /// Whether requests go over a real socket.
    var isSocket: Bool { socketApp != nil }

    /// A service on a new database of `backend`.
    convenience init(_ backend: Backend, socket: Bool = false, configure: (inout AppConfiguration) -> Void = { _ in })
        throws
    {
        try self.init(on: TestDatabase(backend), socket: socket, configure: configure)
    }

    /// A service on `database`, which other services may use before, after or at the same time.
    init(on database: TestDatabase, socket: Bool = false, configure: (inout AppConfiguration) -> Void = { _ in })
        throws
    {
        self.database = database
        var configuration = AppConfiguration()
        configuration.http.port = 0
        configuration.store.path = database.location
        configuration.logLevel = .warn
        configure(&configuration)
        if socket {
            socketApp = try RecentsApp.start(configuration)
            inProcess = nil
        } else {
            socketApp = nil
            inProcess = try InProcessApp(configuration)
        }
    }

    deinit {
        socketApp?.shutdown()
        inProcess?.shutdown()
    }

    /// Stops the service as a shutdown does (answers parked long-polls, closes the database).
    func shutdown() {
        socketApp?.shutdown()
        inProcess?.shutdown()
    }

    /// A new keep-alive connection to the socket server.
    func client() throws -> HTTPConnection { try HTTPConnection(port: port) }

    /// One request: through the pipeline in process, or on a fresh connection.
    @discardableResult
    func request(
        _ method: String, _ target: String, body: String? = nil, headers: [(String, String)] = []
    ) throws -> TestResponse {
        try request(method, target, bytes: body.map { Array($0.utf8) }, headers: headers)
    }

    /// One request with a body of raw bytes (nil: none).
    @discardableResult
    func request(
        _ method: String, _ target: String, bytes body: [UInt8]?, headers: [(String, String)] = []
    ) throws -> TestResponse {
        if socketApp != nil { return try client().request(method, target, bytes: body, headers: headers) }
        return try finish(begin(method, target, bytes: body, headers: headers))
    }

    /// Sends a request in process and returns at once: its answer may come later (a long-poll).
    func begin(
        _ method: String, _ target: String, bytes body: [UInt8]? = nil, headers: [(String, String)] = []
    ) throws -> InProcessExchange {
        guard let inProcess else { throw TestClientError(description: "begin needs an in-process server") }
        // What the socket client adds: `Host`, and for a body `Content-Type: application/json`
        // unless named, and its `Content-Length`.
        var fields = HTTPHeaders()
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { fields.add("Host", "localhost") }
        for (name, value) in headers { fields.add(name, value) }
        if let body {
            if !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
                fields.add("Content-Type", "application/json")
            }
            fields.add("Content-Length", String(body.count))
        }
        let request = HTTPRequest(method: HTTPMethod(method), target: target, headers: fields, body: body ?? [])
        return inProcess.connection.send(request)
    }

    /// The answer of a request `begin` sent, once complete (at most 60 s).
    func finish(_ exchange: InProcessExchange) throws -> TestResponse {
        guard let response = exchange.complete(within: .seconds(60)), exchange.isComplete else {
            exchange.cancel()
            throw TestClientError(description: "no complete answer within 60 s")
        }
        return Self.testResponse(response)
    }

    /// An in-process answer (or its head and body so far) as the socket client would read it.
    static func testResponse(_ response: HTTPResponse) -> TestResponse {
        TestResponse(
            status: response.status, reason: HTTPResponse.reasonPhrase(response.status),
            headers: HTTPClientHeaders(response.headers.map { (name: $0.name, value: $0.value) }), body: response.body)
    }

    /// Reads the key set file again, as SIGHUP does.
    @discardableResult
    func reloadKeySet() -> KeySetReload? { socketApp?.reloadKeySet() ?? inProcess?.reloadKeySet() }

    /// The view cache (in process only), for tests of what it holds.
    var views: ViewCache? { inProcess?.views }
}

extension TestServer {
    /// A gauge of /metrics (-1 when it is missing).
    func gauge(_ name: String) throws -> Int {
        let text = try request("GET", "/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return Int(line?.split(separator: " ").last ?? "") ?? -1
    }

    /// Waits (at most 10 s) until every open stream is free: its last chunk taken and the stream
    /// settled, so that a step of a `ManualClock` finds it ready for a heartbeat. In process only.
    func waitUntilStreamsSettle() throws {
        guard let inProcess else { preconditionFailure("in process only") }
        let deadline = ContinuousClock.now + .seconds(10)
        while inProcess.busyStreams > 0 {
            guard ContinuousClock.now < deadline else { throw TestClientError(description: "streams stayed busy") }
            sched_yield()
        }
    }

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
