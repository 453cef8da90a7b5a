import SystemSupport

/// A connection that comes back: when PostgreSQL went away, the next use reconnects, when the
/// store's `PGReconnects` lets it (one try at a time, 100-250 ms apart while tries fail); in
/// between, a use fails at once with a connection-lost `PGError`. The loss and the reconnect are
/// logged once each, naming the thread's role (writer, reader, listener).
///
/// A connection also counts as lost when the server refuses a write as read-only (SQLSTATE 25006)
/// and the URI asks for `target_session_attrs=read-write` (a fenced or demoted primary during a
/// switchover: the reconnect finds the node that takes writes), and when another connection of the
/// store reached another server (`PGReconnects.isCurrent`): it follows at its next use.
///
/// Owned by one store thread; not Sendable.
final class PGLink {
    let connection: PGConnection
    private let role: String
    private let logger: Logger
    private let reconnects: PGReconnects
    /// The server this connection reached last.
    private(set) var server: String
    /// How many times the connection was re-established (a listener listens again after each).
    private(set) var generation = 0
    /// When the connection was found lost, while it is.
    private var lostAt: ContinuousClock.Instant?
    /// The server ended the connection (a `FATAL` such as 57P01) though libpq may still call it
    /// OK, or it is read-only and writes must go elsewhere.
    private var broken = false

    init(_ connection: PGConnection, role: String, logger: Logger, reconnects: PGReconnects) {
        self.connection = connection
        self.role = role
        self.logger = logger
        self.reconnects = reconnects
        server = connection.server
        reconnects.opened(on: server)
    }

    /// Records a failure of the connection itself (`PGError.isConnectionFailure`), or a read-only
    /// refusal where the URI wants a read-write server: the next use reconnects.
    func failed(_ error: PGError) {
        if error.isConnectionFailure || (error.isReadOnlyRefusal && connection.requiresReadWrite) { broken = true }
    }

    /// Whether a read-only refusal makes this connection reconnect (see `failed`).
    var leavesReadOnlyServers: Bool { connection.requiresReadWrite }

    /// The connection, reconnected first if it was lost (or its server is no longer the store's).
    /// - Throws: `PGError` (connection lost) while the server stays unreachable, or until this
    ///   connection's turn to try comes.
    func usable() throws -> PGConnection {
        let healthy = connection.isHealthy && !broken
        if healthy && reconnects.isCurrent(server) { return connection }
        let now = ContinuousClock.now
        // Following another connection to the server it reached takes no turn: that server
        // answers, so there is no probing to ration, and the old one may still answer reads (a
        // fenced primary does) older than a write the new one acknowledged.
        let following = healthy
        if !following {
            noteLost(at: now)
            guard reconnects.claim(at: now) else {
                throw PGError(sqlState: nil, message: "reconnecting to PostgreSQL", connectionLost: true)
            }
        }
        do {
            try connection.reset()
        } catch {
            // A follower holds no turn, so it leaves another connection's try and delay alone.
            if !following { reconnects.failed(at: ContinuousClock.now) }
            logger.debug("PostgreSQL reconnect failed", [("role", role), ("error", "\(error)")])
            broken = true
            throw error
        }
        let reached = connection.server
        if following { reconnects.followed(to: reached) } else { reconnects.succeeded(server: reached) }
        if let lostAt {
            let seconds = SystemClock.seconds(ContinuousClock.now - lostAt)
            logger.info(
                "reconnected to PostgreSQL", [("role", role), ("after_seconds", String(seconds)), ("server", reached)])
        } else {
            logger.info("moved to the PostgreSQL server the store uses now", [("role", role), ("server", reached)])
        }
        server = reached
        generation += 1
        lostAt = nil
        broken = false
        return connection
    }

    /// Logs the loss the first time it is seen.
    private func noteLost(at now: ContinuousClock.Instant) {
        guard lostAt == nil else { return }
        lostAt = now
        logger.warn("lost the PostgreSQL connection", [("role", role), ("server", server)])
    }

    /// How long the caller may wait before its next try could be allowed (zero: now).
    var untilNextTry: Duration { reconnects.untilNextTry(at: .now) }
}
