import CSQLite
import Foundation
import Testing

@testable import RecentsStore

@Suite struct ConnectionTests {
    @Test func everyConnectionIsConfigured() async throws {
        try await withTemporaryDirectory { directory in
            let connection = try SQLiteConnection(path: directory + "/c.sqlite")
            #expect(try connection.queryText("PRAGMA journal_mode") == "wal")
            #expect(try connection.queryInt("PRAGMA synchronous") == 2)  // FULL
            #expect(try connection.queryInt("PRAGMA foreign_keys") == 1)
            #expect(try connection.queryInt("PRAGMA busy_timeout") == 5000)
        }
    }

    @Test func theWriterLetsTheLogGrowPastSQLitesDefaultCheckpoint() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/c.sqlite"
            let connection = try SQLiteConnection(path: path)
            #expect(try connection.queryInt("PRAGMA wal_autocheckpoint") == Int64(SQLiteConnection.checkpointPages))
            try connection.execute("CREATE TABLE t (x BLOB NOT NULL) STRICT")
            // 1,500 commits of a page-sized row each: at SQLite's default (1,000 pages) the log
            // would have been checkpointed and restarted, and would not hold them all.
            let row = [UInt8](repeating: 7, count: 4000)
            for _ in 0..<1500 { try connection.run("INSERT INTO t (x) VALUES (?)", row) }
            let log = try #require(FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int)
            #expect(log > 1500 * 4096)
        }
    }

    @Test func readerConnectionsAreQueryOnly() async throws {
        try await withTemporaryDirectory { directory in
            _ = try SQLiteConnection(path: directory + "/c.sqlite")
            let reader = try SQLiteConnection(path: directory + "/c.sqlite", readOnly: true)
            #expect(try reader.queryInt("PRAGMA query_only") == 1)
            #expect(throws: SQLiteError.self) { try reader.execute("CREATE TABLE t (x INTEGER) STRICT") }
        }
    }

    @Test func inMemoryDatabaseIsRefusedBecauseItCannotUseWAL() {
        #expect(throws: SQLiteError.self) { try SQLiteConnection(path: ":memory:") }
    }

    @Test func statementsArePreparedOnceAndReused() async throws {
        try await withTemporaryDirectory { directory in
            let connection = try SQLiteConnection(path: directory + "/c.sqlite")
            try connection.execute("CREATE TABLE t (x INTEGER NOT NULL) STRICT")
            let before = connection.preparedCount
            for value in 0..<100 { try connection.run("INSERT INTO t (x) VALUES (?)", value) }
            #expect(connection.preparedCount == before + 1)
            #expect(try connection.queryInt("SELECT sum(x) FROM t") == 4950)
            // Two statements for the same SQL in use at once are distinct (a second cursor).
            let first = try connection.statement("SELECT x FROM t ORDER BY x")
            let second = try connection.statement("SELECT x FROM t ORDER BY x")
            #expect(first !== second)
            try first.bind()
            try second.bind()
            #expect(try first.step() && first.int(0) == 0)
            #expect(try first.step() && first.int(0) == 1)
            #expect(try second.step() && second.int(0) == 0)
            connection.recycle(first)
            connection.recycle(second)
        }
    }

    /// The cache hashes SQL by its length only: texts of one length still get their own statements.
    @Test func cachedStatementsOfTheSameLengthStayApart() async throws {
        try await withTemporaryDirectory { directory in
            let connection = try SQLiteConnection(path: directory + "/c.sqlite")
            let texts = ["SELECT 1", "SELECT 2", "SELECT 3"]
            let before = connection.preparedCount
            for _ in 0..<3 {
                for (index, text) in texts.enumerated() { #expect(try connection.queryInt(text) == Int64(index + 1)) }
            }
            #expect(connection.preparedCount == before + 3)
        }
    }

    @Test func textRoundTripsByteExactly() async throws {
        try await withTemporaryDirectory { directory in
            let connection = try SQLiteConnection(path: directory + "/c.sqlite")
            for text in ["", "plain", "é 🦊", "nul\u{0}inside"] {
                let back = try connection.with("SELECT ?", text) { try $0.step() ? $0.string(0) : nil }
                #expect(back == text)
            }
        }
    }

    @Test func errorDescriptionCarriesNoSQLAndNoValues() async throws {
        try await withTemporaryDirectory { directory in
            let connection = try SQLiteConnection(path: directory + "/c.sqlite")
            try connection.execute("CREATE TABLE t (name TEXT PRIMARY KEY) STRICT")
            try connection.run("INSERT INTO t (name) VALUES (?)", "secret-value")
            do {
                try connection.run("INSERT INTO t (name) VALUES (?)", "secret-value")
                Issue.record("duplicate insert succeeded")
            } catch let error as SQLiteError {
                #expect(error.code == SQLITE_CONSTRAINT)
                #expect(error.extendedCode == 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY (a macro Swift cannot import)
                #expect(!error.description.contains("secret"))
                #expect(!error.description.contains("INSERT"))
                #expect(error.logDescription.contains("INSERT INTO t"))
            }
            do {
                try connection.execute("SELECT * FROM missing_table WHERE x = 'secret-literal'")
                Issue.record("query on a missing table succeeded")
            } catch let error as SQLiteError {
                #expect(error.code == SQLITE_ERROR)
                #expect(!error.description.contains("secret"))
                #expect(!error.description.contains("missing_table"))
                #expect(error.sql?.contains("missing_table") == true)
            }
        }
    }
}
