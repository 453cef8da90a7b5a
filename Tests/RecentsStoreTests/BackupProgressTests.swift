import Testing

@testable import RecentsStore

/// `SQLiteStore.backup` copies a slice at a time to report progress (issue 43), yet the copy is
/// still the one snapshot of the moment it began.
@Suite struct BackupProgressTests {
    /// A live database of about 12 MB: three slices and more.
    func withLargeDatabase(_ body: (_ live: String, _ directory: String) throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let live = directory + "/live.sqlite"
            try SQLiteListStore.open(StoreConfiguration(path: live)).close()
            let connection = try SQLiteConnection(path: live)
            try connection.execute("CREATE TABLE filler (n INTEGER PRIMARY KEY, bytes BLOB)")
            try connection.execute(
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
                INSERT INTO filler SELECT i, randomblob(4000) FROM n
                """)
            try body(live, directory)
        }
    }

    @Test func progressCountsUpToTheWholeDatabaseThenChecksAndSyncs() async throws {
        try await withLargeDatabase { live, directory in
            var steps: [BackupProgress] = []
            try SQLiteStore.backup(StoreConfiguration(path: live), to: directory + "/copy.sqlite") { steps.append($0) }
            let copied = steps.compactMap { step -> (Int, Int)? in
                if case .copied(let bytes, let total) = step { return (bytes, total) }
                return nil
            }
            #expect(copied.count >= 3, "a 12 MB database is copied in slices: \(copied)")
            #expect(zip(copied, copied.dropFirst()).allSatisfy { $0.0 < $1.0 }, "each slice adds bytes")
            let last = try #require(copied.last)
            #expect(last.0 == last.1 && last.1 > 10_000_000)
            #expect(Array(steps.suffix(2)) == [.checking, .syncing])
        }
    }

    /// A write that lands between two slices is not in the copy, and does not restart it.
    @Test func aWriteBetweenSlicesStaysOutOfTheCopy() async throws {
        try await withLargeDatabase { live, directory in
            let copy = directory + "/copy.sqlite"
            let writer = try SQLiteConnection(path: live)
            var slices = 0
            try SQLiteStore.backup(StoreConfiguration(path: live), to: copy) { step in
                guard case .copied = step else { return }
                slices += 1
                if slices == 1 { try? writer.execute("INSERT INTO filler VALUES (100000, x'00')") }
            }
            #expect(try writer.queryInt("SELECT count(*) FROM filler WHERE n = 100000") == 1)
            let copied = try SQLiteConnection(path: copy, readOnly: true)
            #expect(try copied.queryInt("SELECT count(*) FROM filler") == 3000, "the copy is the snapshot")
            #expect(try copied.queryText("PRAGMA integrity_check") == "ok")
        }
    }
}
