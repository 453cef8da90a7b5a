import SystemSupport

/// A connection that comes back: when PostgreSQL went away, the next use reconnects, with
/// exponential backoff (100 ms doubling to 5 s) so a down server is not hammered; within the
/// backoff window a use fails at once with a connection-lost `PGError`. The loss and the
/// reconnect are logged once each, naming the thread's role (writer, reader, listener).
///
/// Owned by one store thread; not Sendable.
final class PGLink {
    let connection: PGConnection
    private let role: String
    private let logger: Logger
    private var retryAt: ContinuousClock.Instant?
    private var delay: Duration = .milliseconds(100)
    /// When the connection was found lost, while it is.
    private var lostAt: ContinuousClock.Instant?
    /// The server ended the connection (a `FATAL` such as 57P01) though libpq may still call it OK.
    private var broken = false

    init(_ connection: PGConnection, role: String, logger: Logger) {
        self.connection = connection
        self.role = role
        self.logger = logger
    }

    /// Records a failure of the connection itself (`PGError.isConnectionFailure`): the next use
    /// reconnects.
    func failed(_ error: PGError) {
        if error.isConnectionFailure { broken = true }
    }

    /// The connection, reconnected first if it was lost.
    /// - Throws: `PGError` (connection lost) while the server stays unreachable.
    func usable() throws -> PGConnection {
        if connection.isHealthy && !broken { return connection }
        let now = ContinuousClock.now
        if lostAt == nil {
            lostAt = now
            logger.warn("lost the PostgreSQL connection", [("role", role)])
        }
        if let retryAt, now < retryAt {
            throw PGError(sqlState: nil, message: "reconnecting to PostgreSQL", connectionLost: true)
        }
        do {
            try connection.reset()
            if let lostAt {
                let seconds = SystemClock.seconds(ContinuousClock.now - lostAt)
                logger.info("reconnected to PostgreSQL", [("role", role), ("after_seconds", String(seconds))])
            }
            lostAt = nil
            broken = false
            retryAt = nil
            delay = .milliseconds(100)
            return connection
        } catch {
            logger.debug("PostgreSQL reconnect failed", [("role", role), ("error", "\(error)")])
            broken = true
            retryAt = now + delay
            delay = min(delay * 2, .seconds(5))
            throw error
        }
    }
}
