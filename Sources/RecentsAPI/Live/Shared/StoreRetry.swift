import RecentsStore

/// When open streams and parked long-polls whose computation found the database away try again
/// (issue 24: they ride a PostgreSQL restart or failover through instead of ending).
enum StoreRetry {
    /// The wait before the next try, in milliseconds, at random: as often as the store tries to
    /// reconnect, so a computation follows soon after the database is back, and spread, so that
    /// the streams of many lists do not all ask in the same instant.
    static let delayMilliseconds: ClosedRange<Int64> = 100...250

    /// How long until the next try.
    static func delay() -> Duration {
        .milliseconds(Int64.random(in: delayMilliseconds))
    }

    /// Whether `error` means the database is away for a while rather than failing: work that only
    /// reads then waits. A full or failing SQLite disk is not waited out.
    static func isWaitable(_ error: any Error) -> Bool {
        (error as? StoreError)?.isServerAway ?? false
    }
}
