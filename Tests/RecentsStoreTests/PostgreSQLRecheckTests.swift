import Foundation
import RecentsCore
import Testing

@testable import RecentsStore

/// Issue 14, "correctness never depends on notifications": lists watched on an instance are
/// looked up in the database periodically and after the listener reconnects, so a version that
/// moved without a notification still reaches `onCommit`.
@Suite(.enabled(if: Backend.available.contains(.postgresql))) struct PostgreSQLRecheckTests {
    private func open(_ uri: String, recheckInterval: Duration) throws -> PGListStore {
        try PGListStore.open(
            StoreConfiguration(path: uri), migrator: PGMigrator(migrations: Backend.postgresMigrations),
            recheckInterval: recheckInterval)
    }

    /// Waits (off the cooperative pool) until `semaphore` is signalled, at most `seconds`.
    private static func arrived(_ semaphore: DispatchSemaphore, within seconds: Double) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: semaphore.wait(timeout: .now() + seconds) == .success) }.start()
        }
    }

    /// Records what reaches the observer, signalling once `list` reaches `version`; `watched`
    /// answers the store's question.
    private static func observe(
        _ store: PGListStore, until list: String, reaches version: Int64,
        watched: @escaping @Sendable () -> [String: Int64]
    ) -> (seen: Box<[String: Int64]>, arrived: DispatchSemaphore) {
        let seen = Box<[String: Int64]>([:])
        let arrived = DispatchSemaphore(value: 0)
        TestObserver.subscribe(
            store,
            committed: { versions in
                let done = seen.update { latest in
                    latest.merge(versions) { max($0, $1) }
                    return (latest[list] ?? 0) >= version
                }
                if done { arrived.signal() }
            }, watched: watched)
        return (seen, arrived)
    }

    @Test func aVersionWrittenWithoutANotificationWakesTheWatchersWithinTheInterval() async throws {
        try await withPostgresSchema { uri in
            let store = try open(uri, recheckInterval: .milliseconds(200))
            defer { store.close() }
            _ = try await store.write { tx in
                try tx.insertCalls([makeCall("a1")], into: "alice")
                try tx.insertCalls([makeCall("b1")], into: "bob")
            }
            // bob's watchers saw its current version; nobody was ever written.
            let (seen, arrived) = Self.observe(store, until: "alice", reaches: 2) {
                ["alice": 1, "bob": 1, "nobody": 0]
            }
            // Another connection moves alice on without NOTIFY: only the re-check can tell.
            let other = try PGConnection(uri: uri)
            try other.execute("UPDATE lists SET version = 2 WHERE name = 'alice'")
            let delivered = await Self.arrived(arrived, within: 20)
            #expect(delivered, "alice@2 never reached the observer: \(seen.value)")
            #expect(seen.value["bob"] == nil, "an unchanged list was delivered: \(seen.value)")
            #expect(seen.value["nobody"] == nil)
        }
    }

    @Test func aVersionWrittenWhileTheListenerWasAwayIsDeliveredWhenItListensAgain() async throws {
        try await withPostgresSchema { uri in
            // An hour between re-checks: only the one after the reconnect can deliver.
            let store = try open(uri, recheckInterval: .seconds(3600))
            defer { store.close() }
            _ = try await store.write { try $0.insertCalls([makeCall("a1")], into: "alice") }
            // Nothing is watched until armed, so the start-up re-check sent no query and the
            // listener's backend still shows its LISTEN as its last statement.
            let armed = Box(false)
            let (seen, arrived) = Self.observe(store, until: "alice", reaches: 2) { armed.value ? ["alice": 1] : [:] }
            let other = try PGConnection(uri: uri)
            try other.execute("UPDATE lists SET version = 2 WHERE name = 'alice'")
            armed.update { $0 = true }
            let channel = PGNotifications.channel(epoch: store.epoch)
            let ended = try other.query(
                """
                SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE pid <> pg_backend_pid() AND query = $1) AS terminated
                """, "LISTEN \(channel)")
            #expect(try ended.int64(0, 0) == 1)
            let delivered = await Self.arrived(arrived, within: 30)
            #expect(delivered, "alice@2 never reached the observer after the reconnect: \(seen.value)")
        }
    }
}
