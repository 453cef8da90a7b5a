import CSQLite
import Foundation
import Testing

@testable import RecentsStore

/// The VFS shim that gathers a WAL file's writes (Sources/CSQLiteVFS) leaves every file exactly
/// as SQLite wrote it, whatever order SQLite writes, reads back and syncs in.
@Suite struct WALGatheringTests {
    @Test func connectionsOpenOnTheGatheringVFS() async throws {
        try await withTemporaryDirectory { directory in
            _ = try SQLiteConnection(path: directory + "/c.sqlite")
            let vfs = try #require(sqlite3_vfs_find(nil))
            #expect(String(cString: vfs.pointee.zName) == "recents-wal-buffer")
        }
    }

    /// One transaction many times larger than what is gathered at once, through a page cache of
    /// ten pages: SQLite spills pages into the log mid-transaction, rewrites some of those frames
    /// in place and reads others back before its commit syncs. Every value must come back, in the
    /// transaction, after it, on another connection and after the log is checkpointed.
    @Test func aLargeTransactionThatSpillsAndReadsBackKeepsEveryByte() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/c.sqlite"
            let writer = try SQLiteConnection(path: path)
            try writer.execute("PRAGMA cache_size=10")
            try writer.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB NOT NULL) STRICT")
            try writer.execute("CREATE INDEX t_v ON t (v)")
            try writer.execute("BEGIN")
            let rows = 2_000
            for k in 0..<rows { try writer.run("INSERT INTO t (k, v) VALUES (?, ?)", k, Self.value(k)) }
            // Every row rewritten: the same pages change again after they went to the log.
            for k in stride(from: 0, to: rows, by: 3) {
                try writer.run("UPDATE t SET v = ? WHERE k = ?", Self.value(k + rows), k)
            }
            #expect(try writer.queryInt("SELECT count(*) FROM t") == Int64(rows))
            #expect(try writer.queryText(Self.digest) == Self.expectedDigest(rows: rows))
            try writer.execute("COMMIT")
            let reader = try SQLiteConnection(path: path, readOnly: true)
            #expect(try reader.queryText(Self.digest) == Self.expectedDigest(rows: rows))
            #expect(try reader.queryText("PRAGMA integrity_check") == "ok")
            try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            let fresh = try SQLiteConnection(path: path, readOnly: true)
            #expect(try fresh.queryText(Self.digest) == Self.expectedDigest(rows: rows))
        }
    }

    /// Many small commits, the log restarted by checkpoints between them: each commit's frames
    /// follow a header SQLite rewrites at the start of the file.
    @Test func commitsAcrossLogRestartsAllSurviveReopening() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/c.sqlite"
            do {
                let writer = try SQLiteConnection(path: path)
                try writer.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB NOT NULL) STRICT")
                for k in 0..<300 {
                    try writer.run("INSERT INTO t (k, v) VALUES (?, ?)", k, Self.value(k))
                    if k % 50 == 49 { try writer.execute("PRAGMA wal_checkpoint(RESTART)") }
                }
            }
            let reopened = try SQLiteConnection(path: path, readOnly: true)
            #expect(try reopened.queryInt("SELECT count(*) FROM t") == 300)
            #expect(try reopened.queryText(Self.digest) == Self.expectedDigest(rows: 300, updated: false))
            #expect(try reopened.queryText("PRAGMA integrity_check") == "ok")
        }
    }

    /// Other connections read committed frames from the log file itself, so each commit must
    /// have put its frames there before it returns: the shim writes them when the commit syncs,
    /// which is why the store keeps `synchronous=FULL` (with NORMAL, a commit would not sync and
    /// would publish frames that are still gathered in memory).
    @Test func everyCommitIsReadAtOnceByAnotherConnection() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/c.sqlite"
            let writer = try SQLiteConnection(path: path)
            try writer.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB NOT NULL) STRICT")
            let reader = try SQLiteConnection(path: path, readOnly: true)
            // Small commits, so that many of them would fit in what the shim gathers at once.
            for k in 0..<120 {
                try writer.run("INSERT INTO t (k, v) VALUES (?, ?)", k, Self.value(k))
                #expect(try reader.queryText(Self.digest) == Self.expectedDigest(rows: k + 1, updated: false))
            }
        }
    }

    /// 600 bytes that differ for every k, so that a wrong page read back shows.
    static func value(_ k: Int) -> [UInt8] { (0..<600).map { UInt8(truncatingIfNeeded: k &* 31 &+ $0 &* 7) } }

    static let digest =
        "SELECT group_concat(k || ':' || hex(substr(v, 1, 4)) || length(v), ',') FROM (SELECT k, v FROM t ORDER BY k)"

    /// What `digest` gives when row k holds `value(k)`, or `value(k + rows)` for every third k.
    static func expectedDigest(rows: Int, updated: Bool = true) -> String {
        (0..<rows).map { k in
            let v = value(updated && k % 3 == 0 ? k + rows : k)
            return "\(k):" + v.prefix(4).map { String(format: "%02X", $0) }.joined() + "600"
        }.joined(separator: ",")
    }
}
