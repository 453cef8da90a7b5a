internal import CSQLite
import Glibc

/// An online copy of a live database with SQLite's backup API
/// (https://sqlite.org/backup.html): the pages are copied a slice at a time, to report progress,
/// but all under one read transaction held on the source, so the copy is the snapshot at the
/// moment the copy began, as one `sqlite3_backup_step(-1)` would give; in WAL mode the server's
/// writer goes on meanwhile. The copy is written beside the target and renamed into
/// place only once complete, checked and synced, so a crash never leaves a half copy under the
/// target's name. The copy is marked so that its first open renews its epoch (`DatabaseEpoch`).
enum SQLiteBackup {
    /// Why a backup was refused or failed, as one sentence for the operator.
    struct Failure: Error, CustomStringConvertible, Sendable {
        let description: String
    }

    /// Pages copied per step: 4 MB of 4 KB pages, a tenth of a second or less on this host's disks.
    static let pagesPerStep: Int32 = 1024

    /// Copies the database at `source` to the new file `destination`, telling `progress` each step.
    static func copy(
        from source: String, to destination: String, busyTimeoutMilliseconds: Int32,
        progress: (BackupProgress) -> Void
    ) throws {
        guard access(source, F_OK) == 0 else { throw Failure(description: "no database at \(source)") }
        guard access(destination, F_OK) != 0 else {
            throw Failure(description: "\(destination) exists; back up to a new file")
        }
        let partial = destination + ".partial"
        // Leftovers of an interrupted run under our own name (a stale log would be replayed).
        let removePartial = { for suffix in ["", "-wal", "-shm"] { unlink(partial + suffix) } }
        removePartial()
        do {
            do {
                let from = try SQLiteStore.opening(source) {
                    try SQLiteConnection(path: source, busyTimeoutMilliseconds: busyTimeoutMilliseconds, readOnly: true)
                }
                let to = try SQLiteConnection(path: partial, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
                try run(from: from, to: to, progress: progress)
                progress(.checking)
                // A restore of this copy takes the history back: its first open gives it a new
                // epoch, so clients that saw later versions reload (`DatabaseEpoch`).
                try to.markCopy(madeAt: Migrator.timestamp())
                // The copy must read back whole before it takes the target's name.
                let check = try to.queryText("PRAGMA quick_check")
                guard check == "ok" else { throw Failure(description: "the copy failed its check: \(check ?? "")") }
            } catch let error as SQLiteError {
                throw Failure(description: "cannot copy \(source) to \(destination): \(error.storeError)")
            }
            // Closing the connections checkpointed the copy's log into the file; make the file and
            // its name durable before saying it is done.
            progress(.syncing)
            try sync(partial)
            guard rename(partial, destination) == 0 else {
                throw Failure(
                    description: "cannot rename \(partial) to \(destination): \(String(cString: strerror(errno)))")
            }
            try sync(OpenFailure.parent(of: destination))
        } catch {
            removePartial()
            throw error
        }
    }

    /// Copies every page of `from` into `to`, a slice a step.
    private static func run(
        from: SQLiteConnection, to: SQLiteConnection, progress: (BackupProgress) -> Void
    ) throws {
        // The read transaction pins the snapshot for every step; without it each step would take
        // its own, and a write between steps would restart the copy.
        try from.execute("BEGIN")
        defer { try? from.execute("COMMIT") }
        _ = try from.queryInt("SELECT count(*) FROM sqlite_schema")
        let pageSize = Int(try from.queryInt("PRAGMA page_size") ?? 4096)
        guard let backup = sqlite3_backup_init(to.handle, "main", from.handle, "main") else {
            throw to.error(sqlite3_errcode(to.handle), sql: nil)
        }
        var result = SQLITE_OK
        var attempts = 0
        repeat {
            result = sqlite3_backup_step(backup, pagesPerStep)
            switch result {
            case SQLITE_BUSY, SQLITE_LOCKED:
                // The destination is ours alone, so this is a passing lock; try again a while
                // (https://sqlite.org/c3ref/backup_finish.html#sqlite3backupstep).
                attempts += 1
                sqlite3_sleep(50)
            case SQLITE_OK, SQLITE_DONE:
                let total = Int(sqlite3_backup_pagecount(backup))
                let copied = total - Int(sqlite3_backup_remaining(backup))
                progress(.copied(bytes: copied * pageSize, of: total * pageSize))
            default:
                break
            }
        } while result == SQLITE_OK || ((result == SQLITE_BUSY || result == SQLITE_LOCKED) && attempts < 100)
        let finished = sqlite3_backup_finish(backup)
        guard result == SQLITE_DONE else { throw to.error(result, sql: nil) }
        guard finished == SQLITE_OK else { throw to.error(finished, sql: nil) }
    }

    /// fsync(2) of a file or directory.
    private static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw Failure(description: "cannot open \(path) to sync it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw Failure(description: "cannot sync \(path): \(String(cString: strerror(errno)))")
        }
    }
}
