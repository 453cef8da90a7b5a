import Testing

@testable import RecentsStore

/// `PGConnection.pipeline`: several statements in one round trip, a failure stops the rest, and
/// the connection is usable afterwards. Runs when `RECENTS_TEST_POSTGRES_URL` is set.
@Suite(.enabled(if: Backend.available.contains(.postgresql))) struct PGPipelineTests {
    @Test func statementsRunInOrderAndAFailureSkipsTheRest() async throws {
        try await withPostgresSchema { uri in
            let connection = try PGConnection(uri: uri)
            try connection.execute("CREATE TABLE t (n bigint PRIMARY KEY)")
            let results = try connection.pipeline([
                PGStatement("BEGIN"), PGStatement("INSERT INTO t VALUES ($1), ($2)", 1, 2),
                PGStatement("SELECT n FROM t ORDER BY n"), PGStatement("COMMIT"),
            ])
            #expect(results.count == 4)
            #expect(try results[2].int64(1, 0) == 2)

            // The duplicate fails; the INSERT after it and the COMMIT are skipped, so the
            // transaction is still open and failed, and rolls back as a whole.
            #expect {
                try connection.pipeline([
                    PGStatement("BEGIN"), PGStatement("INSERT INTO t VALUES ($1)", 3),
                    PGStatement("INSERT INTO t VALUES ($1)", 1), PGStatement("INSERT INTO t VALUES ($1)", 4),
                    PGStatement("COMMIT"),
                ])
            } throws: { error in (error as? PGError)?.sqlState == "23505" }
            #expect(connection.inTransaction)
            try connection.execute("ROLLBACK")
            let rows = try connection.query("SELECT count(*) FROM t")
            #expect(try rows.int64(0, 0) == 2)
        }
    }
}
