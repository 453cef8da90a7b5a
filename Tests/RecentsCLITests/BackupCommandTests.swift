import Glibc
import Testing

@testable import RecentsCLI

@Suite struct BackupCommandTests {
    /// A fresh path under /tmp, its SQLite side files removed after `body`.
    func withPaths(_ body: (String, String) throws -> Void) rethrows {
        let base = "/tmp/recents-backup-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let (source, copy) = (base + "-live.sqlite", base + "-copy.sqlite")
        defer {
            for path in [source, copy] { for suffix in ["", "-wal", "-shm", ".partial"] { unlink(path + suffix) } }
        }
        try body(source, copy)
    }

    @Test func backupCopiesADatabaseThatThenMigratesAsUpToDate() {
        withPaths { source, copy in
            #expect(run(["migrate", "--db", source]).status == 0)
            let result = run(["backup", "--db", source, "--to", copy])
            #expect(result.status == 0, "\(result.error)")
            #expect(result.standard == ["backed up \(source) to \(copy)"])
            #expect(access(copy + ".partial", F_OK) != 0, "the partial copy is renamed into place")
            // The copy carries the schema history: nothing left to apply.
            #expect(run(["migrate", "--db", copy]).standard == ["database is up to date"])
        }
    }

    @Test func backupRefusesAnExistingTargetAndAMissingSource() {
        withPaths { source, copy in
            let missing = run(["backup", "--db", source, "--to", copy])
            #expect(missing.status == 1)
            #expect(missing.error == ["recents backup: error: no database at \(source)"])
            #expect(access(source, F_OK) != 0, "backup must not create the database it copies")

            #expect(run(["migrate", "--db", source]).status == 0)
            #expect(run(["backup", "--db", source, "--to", copy]).status == 0)
            let again = run(["backup", "--db", source, "--to", copy])
            #expect(again.status == 1)
            #expect(again.error == ["recents backup: error: \(copy) exists; back up to a new file"])
        }
    }

    @Test(arguments: [
        (["backup", "--db", "x.sqlite"], "missing required flag '--to'"),
        (["backup", "--to="], "missing required flag '--to'"),
        (["backup", "--to", "y", "--db="], "--db must not be empty"),
    ])
    func backupChecksItsFlags(_ arguments: [String], _ message: String) {
        let result = run(arguments)
        #expect(result.status == 2)
        #expect(result.error.first == "recents backup: error: \(message)")
    }
}
