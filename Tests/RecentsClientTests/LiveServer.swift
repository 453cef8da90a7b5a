import Foundation
import RecentsAPI
import RecentsClient

/// A real `RecentsApp` on a loopback port with its own temporary database, restartable on the same port.
final class LiveServer: Sendable {
    let directory: URL
    let port: Int
    private let configuration: AppConfiguration
    private let running: Locked<RecentsApp?>

    /// Starts a server on a free port; `configure` adjusts the configuration (e.g. `retainVersions`).
    init(configure: (inout AppConfiguration) -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("recents-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = AppConfiguration()
        configuration.http.port = 0
        configuration.store.path = directory.appendingPathComponent("test.sqlite").path
        configuration.logLevel = .error
        configure(&configuration)
        let app = try RecentsApp.start(configuration)
        port = app.port
        configuration.http.port = app.port
        self.configuration = configuration
        running = Locked(app)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The server's root URL.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// A client of this server.
    func client(token: String? = nil) -> RecentsClient { RecentsClient(baseURL: url, token: token) }

    /// Stops the server (answers parked polls, closes connections and the database).
    func stop() {
        let app = running.withLock { app in
            defer { app = nil }
            return app
        }
        app?.shutdown()
    }

    /// Starts a new server on the same port and database (the epoch and versions carry on).
    func restart() throws {
        stop()
        let app = try RecentsApp.start(configuration)
        running.withLock { $0 = app }
    }
}

/// A value behind a lock, for test state shared across tasks.
final class Locked<Value>: @unchecked Sendable {
    // Sound: `value` is only touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
