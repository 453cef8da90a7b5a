/// The one place that writes SQLite's transaction control (`BEGIN`, `COMMIT`, `ROLLBACK`,
/// `SAVEPOINT`, `RELEASE`), so every transaction rolls back the same way when something throws.
extension SQLiteConnection {
    /// How a transaction takes the database's locks (https://sqlite.org/lang_transaction.html).
    enum TransactionMode {
        /// Takes the read snapshot at the first read, and the write lock at the first write.
        case deferred
        /// Takes the write lock at once, so two writers serialise at `BEGIN` instead of failing later.
        case immediate

        var beginSQL: String {
            switch self {
            case .deferred: "BEGIN"
            case .immediate: "BEGIN IMMEDIATE"
            }
        }
    }

    /// Runs `body` between `BEGIN` and `COMMIT`; when `body` or `COMMIT` throws, rolls back and
    /// rethrows.
    func transaction<R>(_ mode: TransactionMode, _ body: () throws -> R) throws -> R {
        try run(mode.beginSQL)
        do {
            let value = try body()
            try run("COMMIT")
            return value
        } catch {
            // A failed COMMIT may already have ended the transaction (e.g. SQLITE_FULL).
            if inTransaction { _ = try? run("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` under the savepoint `name` inside the current transaction
    /// (https://sqlite.org/lang_savepoint.html): its changes are kept when it returns and undone
    /// when it throws, while the enclosing transaction goes on either way.
    ///
    /// - Returns: `body`'s value or error.
    /// - Throws: only when the savepoint statements themselves fail (the enclosing transaction
    ///   is then unusable and should be rolled back).
    func savepoint<R>(_ name: StaticString, _ body: () throws -> R) throws -> Result<R, any Error> {
        let savepoint = "\(name)"
        try run("SAVEPOINT " + savepoint)
        let result = Result { try body() }
        if case .failure(let error) = result {
            // SQLite may have rolled back the whole transaction on SQLITE_FULL or SQLITE_IOERR
            // (https://sqlite.org/lang_transaction.html#response_to_errors_within_a_transaction):
            // then the savepoint is gone, and going on would run later work in autocommit mode.
            guard inTransaction else { throw error }
            try run("ROLLBACK TO " + savepoint)
        }
        try run("RELEASE " + savepoint)
        return result
    }
}
