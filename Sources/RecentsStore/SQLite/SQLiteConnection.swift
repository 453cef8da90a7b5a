internal import CSQLite
internal import CSQLiteVFS

/// Process-wide settings that must precede SQLite's initialisation, applied once before the
/// first connection opens.
private let sqliteConfigured: Void = {
    _ = recents_sqlite_disable_memstatus()
    // Should registering fail, connections open on the default VFS: the same files, unbatched.
    _ = recents_register_wal_buffer_vfs()
}()

/// One SQLite connection, configured the same way everywhere, with a per-SQL statement cache.
///
/// Opened with `SQLITE_OPEN_NOMUTEX` (https://sqlite.org/threadsafe.html, multi-thread mode):
/// SQLite does not lock the connection, so it must be used by one thread at a time. Every
/// connection of the store is confined to the thread that owns it (writer or one reader), so
/// this type is deliberately not `Sendable`.
final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String
    /// Idle prepared statements by SQL text. A statement in use is removed while it is lent
    /// out, so two live cursors over the same SQL never share one.
    private var cache: [SQLText: [Statement]] = [:]
    /// How many statements were prepared (not served from the cache); for tests.
    private(set) var preparedCount = 0

    /// Opens (creating if needed) the database at `path` and applies the store's settings.
    init(
        path: String, busyTimeoutMilliseconds: Int32 = Int32(StoreConfiguration.defaultBusyTimeoutMilliseconds),
        readOnly: Bool = false
    ) throws {
        _ = sqliteConfigured
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let result = sqlite3_open_v2(path, &db, flags, nil)
        guard result == SQLITE_OK, let db else {
            let error = SQLiteError(result: result, db: db, sql: nil)
            // "Whether or not an error occurs when it is opened, resources associated with the
            // database connection handle should be released by passing it to sqlite3_close()".
            sqlite3_close_v2(db)
            throw error
        }
        self.handle = db
        self.path = path
        try configure(busyTimeoutMilliseconds: busyTimeoutMilliseconds, readOnly: readOnly)
    }

    deinit {
        cache.removeAll()  // finalizes the idle statements
        // close_v2 defers the close until statements still lent out are finalized.
        sqlite3_close_v2(handle)
    }

    /// WAL pages after which a commit checkpoints the log into the database file.
    static let checkpointPages = 10_000

    /// The one place every connection is configured.
    private func configure(busyTimeoutMilliseconds: Int32, readOnly: Bool) throws {
        // Extended codes tell SQLITE_CONSTRAINT_UNIQUE from other constraint failures.
        sqlite3_extended_result_codes(handle, 1)
        // Wait (up to the timeout) instead of failing at once when another connection holds the
        // write lock, e.g. a `recents migrate` run (https://sqlite.org/c3ref/busy_timeout.html).
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        // WAL: readers never block the writer nor wait for it, and one commit is one append to
        // the log (https://sqlite.org/wal.html). The pragma answers the mode actually in force;
        // anything but "wal" (e.g. an in-memory database) means our concurrency model is void.
        // A file the process may not write is opened read-only without an error
        // (https://sqlite.org/c3ref/open.html); say so now rather than at the first write.
        if !readOnly && sqlite3_db_readonly(handle, "main") == 1 {
            throw SQLiteError(
                code: SQLITE_READONLY, extendedCode: SQLITE_READONLY, message: "the database file is read-only",
                sql: nil)
        }
        let mode = try queryText("PRAGMA journal_mode=WAL")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(
                code: SQLITE_ERROR, extendedCode: SQLITE_ERROR,
                message: "journal_mode=WAL answered \(mode ?? "nothing")", sql: "PRAGMA journal_mode=WAL")
        }
        // FULL: in WAL mode, the log is synced at every commit, so an acknowledged write survives
        // power loss; NORMAL would only guarantee consistency (https://sqlite.org/pragma.html#pragma_synchronous).
        // The WAL-gathering VFS (CSQLiteVFS) needs it too: that sync is when a commit's frames reach
        // the file other connections read them from.
        try execute("PRAGMA synchronous=FULL")
        if !readOnly {
            // Only a committing connection checkpoints. SQLite's default, every 1,000 WAL pages, ran
            // a checkpoint every ~14 group commits under load, each copying again the index pages the
            // last one had just copied (a batch of writes touches the same few pages per list) and
            // syncing the database file on the writer thread. Every 10,000 pages (a WAL of ~40 MB)
            // copies each hot page once per ten times as many commits: +18% acknowledged writes at
            // concurrency 64 (means of 3 interleaved rounds, 15,930 vs 18,756/s, 2026-12-02).
            try execute("PRAGMA wal_autocheckpoint=\(Self.checkpointPages)")
        }
        // Foreign keys are off by default for compatibility (https://sqlite.org/foreignkeys.html).
        try execute("PRAGMA foreign_keys=ON")
        if readOnly {
            // Reader connections never write; make a bug that tries fail loudly.
            try execute("PRAGMA query_only=ON")
        }
    }

    /// Runs one or more statements with no parameters and no result rows needed.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        if result != SQLITE_OK {
            var error = SQLiteError(result: result, db: handle, sql: sql)
            if let message { error.message = String(cString: message) }
            throw error
        }
    }

    /// The first column of the first row of `sql`, as text.
    func queryText(_ sql: String) throws -> String? {
        let statement = try self.statement(sql)
        defer { recycle(statement) }
        return try statement.step() ? statement.optionalString(0) : nil
    }

    /// The first column of the first row of `sql`, as an integer.
    func queryInt(_ sql: String) throws -> Int64? {
        let statement = try self.statement(sql)
        defer { recycle(statement) }
        return try statement.step() ? statement.int64(0) : nil
    }

    /// Lends out a prepared statement for `sql`: an idle cached one if any, else a new one.
    /// Give it back with `recycle(_:)`.
    func statement(_ sql: String) throws -> Statement {
        if let statement = cache[SQLText(sql)]?.popLast() { return statement }
        var pointer: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard result == SQLITE_OK, let pointer else {
            sqlite3_finalize(pointer)
            throw SQLiteError(result: result, db: handle, sql: sql)
        }
        preparedCount += 1
        return Statement(handle: pointer, sql: sql, connection: self)
    }

    /// Returns a lent statement to the cache, reset so it holds no read snapshot or bindings.
    func recycle(_ statement: Statement) {
        statement.reset()
        cache[SQLText(statement.sql), default: []].append(statement)
    }

    /// Lends a statement bound to `values` to `body`, and takes it back afterwards.
    func with<R>(_ sql: String, _ values: any SQLiteBindable..., body: (Statement) throws -> R) throws -> R {
        let statement = try self.statement(sql)
        defer { recycle(statement) }
        try statement.bind(values)
        return try body(statement)
    }

    /// Runs `sql` bound to `values` to completion; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: any SQLiteBindable...) throws -> Int {
        let statement = try self.statement(sql)
        defer { recycle(statement) }
        try statement.bind(values)
        try statement.run()
        return Int(sqlite3_changes64(handle))
    }

    /// The error state of this connection after a call returned `result`.
    func error(_ result: Int32, sql: String?) -> SQLiteError {
        SQLiteError(result: result, db: handle, sql: sql)
    }

    /// Rows inserted, updated or deleted by this connection's statements since it opened
    /// (https://sqlite.org/c3ref/total_changes.html); a statement that failed and was undone adds none.
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// Whether the connection is inside a transaction (not in autocommit mode).
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}

/// A statement cache key: the SQL text, hashed by its length alone.
///
/// Why: a write lends and recycles about six cached statements, each a lookup, and SipHash over
/// their 50-250 bytes of SQL was ~4% of the writer thread's CPU at concurrency 64 (perf). The
/// texts a connection prepares mostly differ in length, and `==` tells apart those that do not.
private struct SQLText: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    func hash(into hasher: inout Hasher) { hasher.combine(text.utf8.count) }
}
