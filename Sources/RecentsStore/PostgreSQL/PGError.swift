/// A failure reported by libpq or the PostgreSQL server.
///
/// `message` is the server's primary message (or libpq's, for connection failures); it never
/// includes SQL text or bound values, which stay out of every error that leaves the store.
struct PGError: EngineError, CustomStringConvertible {
    /// The five-character SQLSTATE, when the server sent one.
    var sqlState: String?
    /// The primary message.
    var message: String
    /// Whether libpq found the connection unusable (lost, refused, reset).
    var connectionLost: Bool

    /// Whether the connection, not the statement, failed: lost, or ended by the server (SQLSTATE
    /// class 08, or 57P01-57P03: an administrator's or a shutting-down server's `FATAL`, which a
    /// failover or a restart sends every backend before it closes the socket).
    var isConnectionFailure: Bool {
        connectionLost || sqlState?.hasPrefix("08") == true || sqlState?.hasPrefix("57P") == true
    }

    /// The server refused a write because the transaction is read-only (SQLSTATE 25006): a
    /// standby, or a primary fenced off for a switchover (`default_transaction_read_only`).
    /// Nothing of the transaction can commit, so its batch may run again elsewhere.
    var isReadOnlyRefusal: Bool { sqlState == "25006" }

    var description: String {
        if let sqlState { return "\(message) (SQLSTATE \(sqlState))" }
        return message
    }

    /// A serialization failure, deadlock or busy out-of-order lock: the whole transaction may
    /// simply be run again.
    var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" || sqlState == "55P03" }

    /// The store-level error for this failure.
    var storeError: StoreError {
        if connectionLost { return .unavailable(message) }  // no SQLSTATE, only libpq's words
        guard let sqlState else { return .engine(description) }
        switch sqlState {
        case "23505": return .constraint(unique: true, description)
        case _ where sqlState.hasPrefix("23"): return .constraint(unique: false, description)
        case "53100": return .full(description)
        case "25006": return .readOnly(description)
        case "55P03", "40001", "40P01": return .busy(description)
        case "XX001", "XX002": return .corrupt(description)
        case _ where sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") || sqlState.hasPrefix("53"):
            return .unavailable(description)
        default: return .engine(description)
        }
    }
}
