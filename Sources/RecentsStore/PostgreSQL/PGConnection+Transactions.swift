/// The one place that writes PostgreSQL's transaction control, so every transaction rolls back
/// the same way when something throws.
extension PGConnection {
    /// Runs `body` between `begin` and `COMMIT`; when `body` or `COMMIT` throws, rolls back (if
    /// the connection still holds a transaction) and rethrows.
    func transaction<R>(_ begin: String = "BEGIN", _ body: () throws -> R) throws -> R {
        try execute(begin)
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if isHealthy, inTransaction { _ = try? execute("ROLLBACK") }
            throw error
        }
    }
}
