internal import CSQLite
import Synchronization
import SystemSupport

/// Copies the WAL into the database file on a thread of its own, so the one writer never waits
/// for that copy or for the database file's sync (issue 42).
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold, on the
/// committing thread: while a million-call clear was marked in the background, that copy of up
/// to `SQLiteConnection.checkpointPages` scattered pages and the database file's sync (one
/// `fdatasync` of 167 ms, strace) held the writer, and other lists' single writes waited
/// 180-370 ms. So the writer's automatic checkpoint is off, each of its commits reports the WAL's
/// size (`SQLiteConnection.reportWALSize`), and this thread runs a PASSIVE checkpoint once the
/// size crosses the threshold. In WAL mode a checkpoint and a writer run at the same time
/// (https://sqlite.org/wal.html#ckpt); the first commit after a complete checkpoint writes the
/// log from its start again, so it stays as large as before.
final class SQLiteCheckpointer: Sendable {
    /// The WAL's size in pages after the writer's last commit, written by the writer's hook.
    final class WALSize: Sendable {
        let pages = Atomic<Int>(0)
    }

    private let connection: CheckpointConnection
    private let thread = Mutex<PollingThread?>(nil)

    /// Opens the checkpointer's own connection to `path` and, unless `interval` is nil (tests
    /// call `checkpointIfDue()` themselves), starts its thread, which looks at `size` every `interval`.
    init(
        path: String, busyTimeoutMilliseconds: Int32, size: WALSize,
        threshold: Int = SQLiteConnection.checkpointPages, interval: Duration? = .milliseconds(20)
    ) throws {
        let connection = CheckpointConnection(
            try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds), size: size,
            threshold: threshold)
        self.connection = connection
        if let interval {
            let started = PollingThread(name: "recents-ckpt", interval: interval) {
                _ = connection.checkpointIfDue()
                return true
            }
            thread.withLock { $0 = started }
        }
    }

    /// Checkpoints now when the WAL crossed the threshold since the last look; returns whether it did.
    @discardableResult
    func checkpointIfDue() -> Bool { connection.checkpointIfDue() }

    /// Stops the thread and closes its connection (before the writer's, whose close, the last,
    /// checkpoints the whole log and removes it); idempotent.
    func stop() {
        thread.withLock { $0 }?.stop()
        connection.close()
    }
}

/// The checkpointer's connection and what it last saw.
///
/// `@unchecked Sendable`, and safe: the connection (not Sendable: SQLite's multi-thread mode) is
/// used by one thread at a time. Only the polling thread calls `checkpointIfDue` (or, with no
/// thread, the one test that owns the checkpointer), and `close` runs after `PollingThread.stop()`
/// joined that thread, which orders every earlier use before it.
private final class CheckpointConnection: @unchecked Sendable {
    private var connection: SQLiteConnection?
    private let size: SQLiteCheckpointer.WALSize
    private let threshold: Int
    /// The size a checkpoint last ran at: a log that did not move since needs no second one.
    private var checkpointedAt = 0

    init(_ connection: SQLiteConnection, size: SQLiteCheckpointer.WALSize, threshold: Int) {
        self.connection = connection
        self.size = size
        self.threshold = threshold
    }

    func checkpointIfDue() -> Bool {
        let pages = size.pages.load(ordering: .relaxed)
        guard let connection, pages >= threshold, pages != checkpointedAt else { return false }
        checkpointedAt = pages
        // PASSIVE waits for nobody: it copies what no reader's snapshot still needs, and the
        // rest at a later look. A failure (a full disk) leaves the log as it is, for the next.
        return sqlite3_wal_checkpoint_v2(connection.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil) == SQLITE_OK
    }

    func close() { connection = nil }
}

extension SQLiteConnection {
    /// Turns this (the writer's) connection's automatic checkpoint off and has each of its
    /// commits store the WAL's size in `size` instead, for a `SQLiteCheckpointer`.
    func reportWALSize(to size: SQLiteCheckpointer.WALSize) {
        // The connection keeps `size` alive as long as its hook may run.
        walSize = size
        // The automatic checkpoint is itself a WAL hook (sqlite3_wal_autocheckpoint); this one
        // replaces it.
        sqlite3_wal_hook(
            handle,
            { context, _, _, pages in
                guard let context else { return SQLITE_OK }
                let size = Unmanaged<SQLiteCheckpointer.WALSize>.fromOpaque(context).takeUnretainedValue()
                size.pages.store(Int(pages), ordering: .relaxed)
                return SQLITE_OK
            }, Unmanaged.passUnretained(size).toOpaque())
    }
}
