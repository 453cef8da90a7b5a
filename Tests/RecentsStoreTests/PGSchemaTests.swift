import Testing

@testable import RecentsStore

/// What the PostgreSQL migrations leave in a new database beyond what the store tests exercise.
/// Runs when `RECENTS_TEST_POSTGRES_URL` is set.
@Suite(.enabled(if: Backend.available.contains(.postgresql))) struct PGSchemaTests {
    /// postgresql/0003: `calls` has no foreign key (its per-row check trigger was a tenth of the
    /// database's CPU under one-call writes); `list_versions`, written once per state change, and
    /// `list_clears` (postgresql/0008), once per clear, keep theirs.
    @Test func callsCarryNoForeignKeyAndListVersionsKeepTheirs() async throws {
        try await withPostgresSchema { uri in
            let connection = try PGConnection(uri: uri)
            _ = try PGMigrator(migrations: Backend.postgresMigrations).migrate(connection)
            let keys = try connection.query(
                """
                SELECT conrelid::regclass::text FROM pg_constraint
                WHERE contype = 'f' AND connamespace = current_schema()::regnamespace ORDER BY 1
                """)
            #expect((0..<keys.count).map { keys.string($0, 0) } == ["list_clears", "list_versions"])
        }
    }
}
