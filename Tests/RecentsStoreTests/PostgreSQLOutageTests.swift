import Foundation
import RecentsCore
import RecentsTestSupport
import Synchronization
import SystemSupport
import Testing

@testable import RecentsStore

/// The store through PostgreSQL outages (issue 24): a server stopped and started again, a
/// primary fenced read-only for a switchover, a COMMIT whose connection is cut. The servers that
/// go away are throwaway clusters of the tests' own; the others use the shared test server.
@Suite struct PostgreSQLOutageTests {
    private static func open(
        _ uri: String, logger: Logger = Logger(level: .warn), recheckInterval: Duration = PGListener.recheckInterval
    ) throws -> PGListStore {
        try PGListStore.open(
            StoreConfiguration(path: uri), logger: logger, migrator: PGMigrator(migrations: Backend.postgresMigrations),
            recheckInterval: recheckInterval)
    }

    /// Runs `task` on the writer thread (between batches) and waits for it.
    private static func onWriter(_ store: PGListStore, _ task: @escaping @Sendable (PGWriterContext) -> Void) async {
        let done = DispatchSemaphore(value: 0)
        _ = store.onWriter { context in
            task(context)
            done.signal()
        }
        await waitBlocking(done)
    }

    /// `body`'s value once it stops throwing (the store may still be reconnecting), trying every
    /// 50 ms for at most 30 s.
    private static func eventually<T>(_ body: () async throws -> T) async throws -> T {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            do {
                return try await body()
            } catch  where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    private static func isServerAway(_ error: any Error) -> Bool { (error as? StoreError)?.isServerAway ?? false }

    /// What `body` returned or threw.
    private static func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    @Test(.enabled(if: ThrowawayCluster.isAvailable))
    func writersReadersAndTheListenerComeBackByThemselvesAfterTheServerCrashes() async throws {
        let cluster = try ThrowawayCluster()
        // An hour between re-checks: only the listener's own reconnect can deliver in time.
        let store = try Self.open(cluster.url, recheckInterval: .seconds(3600))
        defer { store.close() }
        let other = try Self.open(cluster.url)
        defer { other.close() }
        _ = try await store.write { try $0.insertCalls([makeCall("a1")], into: "alice") }
        let arrived = DispatchSemaphore(value: 0)
        TestObserver.subscribe(store, committed: { if ($0["alice"] ?? 0) >= 2 { arrived.signal() } }) { ["alice": 1] }

        try cluster.kill()
        let refused = await Self.outcome {
            try await store.write { try $0.insertCalls([makeCall("a2")], into: "alice") }
        }
        let unread = await Self.outcome { try await store.read { try $0.listInfo("alice") } }
        for outcome in [refused.map { _ in () }, unread.map { _ in () }] {
            guard case .failure(let error) = outcome, Self.isServerAway(error) else {
                Issue.record("with the server down: \(outcome)")
                continue
            }
        }
        try cluster.start()

        // Another instance writes; this one only listens: whether its listener came back before
        // the write (the notification) or after it (the re-check on listening again), it hears it.
        _ = try await Self.eventually { try await other.write { try $0.insertCalls([makeCall("a2")], into: "alice") } }
        await waitBlocking(arrived)
        let written = try await Self.eventually {
            try await store.write { try $0.insertCalls([makeCall("a3")], into: "alice") }
        }
        #expect(written.versions["alice"] == 3)
        #expect(try await store.read { try $0.listInfo("alice").version } == 3)
    }

    @Test(.enabled(if: ThrowawayCluster.isAvailable))
    func aFencedPrimarySendsWritesToTheServerThatTakesThemAndTheMoveIsLogged() async throws {
        let (first, second) = (try ThrowawayCluster(), try ThrowawayCluster())
        // A promoted standby has the old primary's schema; these two are apart, so migrate both.
        _ = try PGMigrator(migrations: Backend.postgresMigrations).migrate(try PGConnection(uri: second.url))
        let lines = StoreLoggingTests.Lines()
        let store = try Self.open(
            ThrowawayCluster.uri([first, second], query: "target_session_attrs=read-write"), logger: lines.logger)
        defer { store.close() }
        _ = try await store.write { try $0.insertCalls([makeCall("a1")], into: "alice") }

        // What pg_auto_failover does to a primary it demotes, and postgres-ha.sh before a switchover.
        let admin = try PGConnection(uri: first.url)
        try admin.execute("ALTER SYSTEM SET default_transaction_read_only = on")
        try admin.execute("SELECT pg_reload_conf()")
        while try PGConnection(uri: first.url).query("SHOW default_transaction_read_only").string(0, 0) != "on" {
            try await Task.sleep(for: .milliseconds(20))
        }
        // The writer's session takes the reload at its next statement, or maybe not yet: be sure.
        await Self.onWriter(store) { _ = try? $0.link.connection.execute("SET default_transaction_read_only = on") }

        let moved = try await store.write { try $0.insertCalls([makeCall("b1")], into: "bob") }
        #expect(moved.versions["bob"] == 1)
        let onSecond = try PGConnection(uri: second.url).query("SELECT count(*) FROM calls WHERE call_id = 'b1'")
        #expect(try onSecond.int64(0, 0) == 1)
        #expect(
            lines.all.contains {
                $0.contains("msg=\"PostgreSQL answers from another server now\"")
                    && $0.contains("from=\(first.address)") && $0.contains("to=\(second.address)")
            }, "\(lines.all)")
        // Readers follow the writer: a read now answers from the second server, even while another
        // connection holds the turn to try (the listener reconnecting, say): the first server is
        // fenced but still answers reads, without bob's acknowledged write.
        let turnTaken = Mutex(false)
        await Self.onWriter(store) { context in
            turnTaken.withLock { $0 = context.instance.reconnects.claim(at: .now) }
        }
        #expect(turnTaken.withLock { $0 }, "the test holds the turn")
        #expect(try await store.read { try $0.listInfo("bob").version } == 1)
        let secondServer = second.address
        await Self.onWriter(store) { context in context.instance.reconnects.succeeded(server: secondServer) }
    }

    @Test(.enabled(if: Backend.available.contains(.postgresql)))
    func aReadOnlyRefusalReconnectsOnlyWhenTheURIAsksForAReadWriteServer() async throws {
        try await withPostgresSchema { uri in
            for readWrite in [true, false] {
                let store = try Self.open(uri + (readWrite ? "&target_session_attrs=read-write" : ""))
                defer { store.close() }
                _ = try await store.write { try $0.insertCalls([makeCall(UUID().uuidString)], into: "alice") }
                await Self.onWriter(store) {
                    _ = try? $0.link.connection.execute("SET default_transaction_read_only = on")
                }
                let outcome = await Self.outcome {
                    try await store.write { try $0.insertCalls([makeCall("r")], into: "ro") }
                }
                if readWrite {
                    // A fresh session is not read-only: the batch ran again there.
                    #expect((try? outcome.get())?.versions["ro"] == 1, "\(outcome)")
                } else if case .failure(let error) = outcome, case .readOnly? = error as? StoreError {
                    // Without it the refusal is the answer (503), as on any read-only database.
                } else {
                    Issue.record("expected a read-only refusal: \(outcome)")
                }
            }
        }
    }

    @Test(.enabled(if: Backend.available.contains(.postgresql)))
    func aCommitWhoseConnectionIsCutFailsAndNothingOfItIsStored() async throws {
        try await withPostgresSchema { uri in
            let store = try Self.open(uri)
            defer { store.close() }
            _ = try await store.write { try $0.insertCalls([makeCall("c0")], into: "alice") }
            // A deferred trigger holds COMMIT, so the connection can be cut while COMMIT runs.
            let admin = try PGConnection(uri: uri)
            try admin.execute(
                """
                CREATE FUNCTION hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_sleep(60); RETURN NULL; END $$;
                CREATE CONSTRAINT TRIGGER hold_commit AFTER INSERT ON calls DEFERRABLE INITIALLY DEFERRED
                    FOR EACH ROW EXECUTE FUNCTION hold_commit();
                """)
            let pid = Mutex<Int32>(0)
            await Self.onWriter(store) { context in pid.withLock { $0 = context.link.connection.backendPID } }
            let outcome = Box<Result<WriteOutcome<Void>, any Error>?>(nil)
            let done = DispatchSemaphore(value: 0)
            store.write({ try $0.insertCalls([makeCall("c1")], into: "alice") }) { result in
                outcome.update { $0 = result }
                done.signal()
            }
            let writer = String(pid.withLock { $0 })
            while try admin.query(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = $1::int AND wait_event = 'PgSleep'", writer
            ).int64(0, 0) == 0 {
                try await Task.sleep(for: .milliseconds(20))
            }
            _ = try admin.query("SELECT pg_terminate_backend($1::int)", writer)
            await waitBlocking(done)
            switch outcome.value {
            case .failure(let error): #expect(Self.isServerAway(error), "\(error)")
            case .success, nil: Issue.record("a write whose COMMIT lost its connection was acknowledged")
            }
            try admin.execute("DROP TRIGGER hold_commit ON calls")
            let retried = try await Self.eventually {
                try await store.write { try $0.insertCalls([makeCall("c1")], into: "alice") }
            }
            #expect(retried.versions["alice"] == 2, "the cut COMMIT stored nothing, so the retry is version 2")
            #expect(try await store.read { try $0.listInfo("alice").callCount } == 2)
        }
    }

    @Test(.enabled(if: Backend.available.contains(.postgresql)))
    func aConnectionWaitsAtMostTwoSecondsAHostUnlessTheURISaysOtherwise() throws {
        let url = try #require(Backend.postgresURL)
        #expect(try PGConnection(uri: url).option("connect_timeout") == "2")
        let own = url + (url.contains("?") ? "&" : "?") + "connect_timeout=7"
        #expect(try PGConnection(uri: own).option("connect_timeout") == "7")
        #expect(try PGConnection(uri: url).requiresReadWrite == false)
        let readWrite = url + (url.contains("?") ? "&" : "?") + "target_session_attrs=read-write"
        #expect(try PGConnection(uri: readWrite).requiresReadWrite)
    }
}
