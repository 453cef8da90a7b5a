import Testing

@testable import RecentsStore

/// `PGBatchLocks.lockRowsStatement`: a batch's first lock statement takes the rows in byte-wise
/// name order whatever order it is given, and probes the name index once per name instead of
/// reading the whole `lists` table. Runs when `RECENTS_TEST_POSTGRES_URL` is set.
@Suite(.enabled(if: Backend.available.contains(.postgresql))) struct PGBatchLocksTests {
    /// Lists `l1` … `l600` plus `B`, `a` and `b`, analyzed: enough rows that a scan of the table
    /// looked cheaper to the planner than ten index probes.
    private static func manyLists(_ uri: String) throws -> PGConnection {
        let connection = try PGConnection(uri: uri)
        _ = try PGMigrator(migrations: Backend.postgresMigrations).migrate(connection)
        try connection.execute(
            """
            INSERT INTO lists (name, version, forgotten_below, editing, call_count)
            SELECT 'l' || i, 0, 0, false, 0 FROM generate_series(1, 600) AS i;
            INSERT INTO lists (name, version, forgotten_below, editing, call_count)
            VALUES ('b', 2, 0, false, 0), ('B', 1, 0, false, 0), ('a', 3, 0, false, 0);
            ANALYZE lists
            """)
        return connection
    }

    @Test func locksTheRowsInByteWiseNameOrder() async throws {
        try await withPostgresSchema { uri in
            let connection = try Self.manyLists(uri)
            let locks = PGBatchLocks()
            try connection.execute("BEGIN")
            // "missing" has no row: it stays out of the result (its name lock comes later).
            let result = try connection.pipeline([locks.lockRowsStatement(of: ["b", "missing", "B", "a"])])[0]
            let rows = try locks.noteLocked(result)
            #expect((0..<result.count).map { result.string($0, 0) } == ["B", "a", "b"])
            #expect(rows.mapValues(\.version) == ["B": 1, "a": 3, "b": 2])
            // Held: a second transaction cannot take one of them.
            let other = try PGConnection(uri: uri)
            try other.execute("BEGIN")
            #expect { try other.query("SELECT id FROM lists WHERE name = $1 FOR UPDATE NOWAIT", "a") } throws: {
                ($0 as? PGError)?.sqlState == "55P03"
            }
            try other.execute("ROLLBACK")
            try connection.execute("ROLLBACK")
        }
    }

    /// The plan a prepared statement settles on (the generic one, which counts on ten names)
    /// reads `lists` through its name index, never the whole table.
    @Test func probesTheNameIndexInsteadOfScanningEveryList() async throws {
        try await withPostgresSchema { uri in
            let connection = try Self.manyLists(uri)
            let statement = PGBatchLocks().lockRowsStatement(of: ["l1", "l2"])
            try connection.execute("SET plan_cache_mode = force_generic_plan")
            try connection.execute("PREPARE lock_rows(text[]) AS \(statement.sql)")
            let plan = try connection.execute("EXPLAIN EXECUTE lock_rows('{l1,l2}')")
            let lines = (0..<plan.count).map { plan.string($0, 0) }
            #expect(lines.contains { $0.contains("Index Scan using lists_name_key") }, "\(lines)")
            #expect(!lines.contains { $0.contains("Seq Scan on lists") }, "\(lines)")
        }
    }
}
