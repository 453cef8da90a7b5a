internal import CSQLite
import Glibc

/// An online copy of a live database with SQLite's backup API
/// (https://sqlite.org/backup.html): one `sqlite3_backup_step(-1)` copies every page under one
/// read transaction, so the copy is the snapshot at the moment the step began; in WAL mode the
/// server's writer goes on meanwhile. The copy is written beside the target and renamed into
/// place only once complete, checked and synced, so a crash never leaves a half copy under the
/// target's name. The copy is marked so that its first open renews its epoch (`DatabaseEpoch`).
enum SQLiteBackup {
    /// Why a backup was refused or failed, as one sentence for the operator.
    struct Failure: Error, CustomStringConvertible, Sendable {
        let description: String
    }

    /// Copies the database at `source` to the new file `destination`.
    static func copy(from source: String, to destination: String, busyTimeoutMilliseconds: Int32) throws {
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
                try run(from: from, to: to)
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

    /// Copies every page of `from` into `to`.
    private static func run(from: SQLiteConnection, to: SQLiteConnection) throws {
        guard let backup = sqlite3_backup_init(to.handle, "main", from.handle, "main") else {
            throw to.error(sqlite3_errcode(to.handle), sql: nil)
        }
        var result = sqlite3_backup_step(backup, -1)
        // Busy or locked: the source's writer holds a lock SQLite needs for a moment; try again
        // (https://sqlite.org/c3ref/backup_finish.html#sqlite3backupstep).
        var attempts = 0
        while result == SQLITE_BUSY || result == SQLITE_LOCKED, attempts < 100 {
            sqlite3_sleep(50)
            attempts += 1
            result = sqlite3_backup_step(backup, -1)
        }
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
