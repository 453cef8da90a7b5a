/// A connection that comes back: when PostgreSQL went away, the next use reconnects, with
/// exponential backoff (100 ms doubling to 5 s) so a down server is not hammered; within the
/// backoff window a use fails at once with a connection-lost `PGError`.
///
/// Owned by one store thread; not Sendable.
final class PGLink {
    let connection: PGConnection
    private var retryAt: ContinuousClock.Instant?
    private var delay: Duration = .milliseconds(100)

    init(_ connection: PGConnection) { self.connection = connection }

    /// The connection, reconnected first if it was lost.
    /// - Throws: `PGError` (connection lost) while the server stays unreachable.
    func usable() throws -> PGConnection {
        if connection.isHealthy { return connection }
        let now = ContinuousClock.now
        if let retryAt, now < retryAt {
            throw PGError(sqlState: nil, message: "reconnecting to PostgreSQL", connectionLost: true)
        }
        do {
            try connection.reset()
            retryAt = nil
            delay = .milliseconds(100)
            return connection
        } catch {
            retryAt = now + delay
            delay = min(delay * 2, .seconds(5))
            throw error
        }
    }
}
