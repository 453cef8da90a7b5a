import RecentsStore

// The one place a store failure becomes an HTTP answer.
extension APIError {
    /// Seconds a client is told to wait after a storage failure: long enough for an operator or a
    /// log rotation to free space, short enough that a retry loop recovers soon after.
    static let storageRetrySeconds = 5

    /// 503: the disk is full, failing or read-only; nothing was stored, the request may be retried.
    public static let storageUnavailable = Problem(
        503, "storage-unavailable", "Storage unavailable", retryAfter: storageRetrySeconds)

    /// Seconds a client is told to wait when the database server is away (a PostgreSQL failover or
    /// restart): the store tries a new primary every 100-250 ms, so a keyed retry a second later
    /// usually lands.
    static let serverAwayRetrySeconds = 1

    /// The answer for a store failure a client can act on (retry later), or nil for a fault of
    /// the server's own (answered as a logged 500).
    init?(_ error: StoreError) {
        if let problem = error.storageProblem {
            self = .storageUnavailable("\(problem); nothing was stored, retry later")
            if error.isServerAway { headers = [("Retry-After", String(Self.serverAwayRetrySeconds))] }
        } else if case .busy = error {
            self = .overloaded("the database is busy; retry shortly")
        } else {
            return nil
        }
    }
}
