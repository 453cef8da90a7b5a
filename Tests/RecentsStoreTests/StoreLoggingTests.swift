import Foundation
import Synchronization
import SystemSupport
import Testing

@testable import RecentsStore

/// What the store says in its log: a lost PostgreSQL connection and its return once each, and
/// failed batches without flooding the log during an outage.
@Suite struct StoreLoggingTests {
    /// A logger whose lines tests can read.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var logger: Logger { Logger(level: .info) { line in self.lines.withLock { $0.append(line) } } }
        var all: [String] { lines.withLock { $0 } }
        func count(_ message: String) -> Int { all.filter { $0.contains("msg=\"\(message)\"") }.count }
    }

    @Test func aBatchFailingOverAndOverIsLoggedOnceASecond() {
        let lines = Lines()
        let log = FailureLog()
        for _ in 0..<100 { log.note("disk I/O error", requests: 3, logger: lines.logger) }
        #expect(lines.count("write batch failed") == 1)
        log.note("the database does not answer", requests: 1, logger: lines.logger)
        #expect(lines.count("write batch failed") == 2, "a new reason is logged at once")
    }

    @Test(.enabled(if: Backend.available.contains(.postgresql)))
    func aLostConnectionAndItsReturnAreLoggedOnceEach() async throws {
        try await withPostgresSchema { uri in
            let lines = Lines()
            let store = try PGListStore.open(
                StoreConfiguration(path: uri), logger: lines.logger,
                migrator: PGMigrator(migrations: Backend.postgresMigrations))
            defer { store.close() }
            _ = try await store.write { try $0.insertCalls([makeCall("a")], into: "alice") }
            // End the writer's backend, as a server restart or a failover would.
            let pid = Mutex<Int32>(0)
            let asked = DispatchSemaphore(value: 0)
            _ = store.onWriter { context in
                pid.withLock { $0 = context.link.connection.backendPID }
                asked.signal()
            }
            await waitBlocking(asked)
            let admin = try PGConnection(uri: uri)
            _ = try admin.query("SELECT pg_terminate_backend($1::int)", String(pid.withLock { $0 }))
            // The next write finds the connection gone before anything was sent, and runs once
            // more on a fresh one.
            let written = (try? await store.write { try $0.insertCalls([makeCall("b")], into: "alice") }) != nil
            #expect(written)
            #expect(
                lines.all.contains {
                    $0.contains("msg=\"lost the PostgreSQL connection\"") && $0.contains("role=writer")
                })
            #expect(
                lines.all.contains { $0.contains("msg=\"reconnected to PostgreSQL\"") && $0.contains("role=writer") })
        }
    }
}
