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

    /// 501: the request reaches a list placed on another shard in a way the outbox does not carry;
    /// nothing was written. No v1 endpoint does today: "delete for everyone" and "clear for
    /// everyone" reach a peer's list on another shard through the outbox (`OutboxDrainer`). Kept
    /// so that a future endpoint that forgets it answers clearly instead of with a 500.
    public static let crossShardNotSupported = Problem(
        501, "cross-shard-not-supported", "Not supported across shards")

    /// The answer for a request that touched a list on another shard.
    init(_ error: CrossShardError) {
        self = .crossShardNotSupported(
            "list '\(error.other)' lives on another shard than '\(error.list)', and this request cannot reach "
                + "lists on two shards; nothing was changed")
    }

    /// 503: the list's bucket is being moved to another shard (a fence of at most a second) or has
    /// just moved and this instance has not yet read the new placement; nothing was written. The
    /// same request (with its `Idempotency-Key`) after `Retry-After` lands on the new shard.
    public static let bucketMoving = Problem(
        503, "bucket-moving", "List moving between shards", retryAfter: BucketMovingError.retryAfterSeconds)

    /// The answer for a write refused by a bucket's move.
    init(_ error: BucketMovingError) {
        self = .bucketMoving(
            error.moved
                ? "list '\(error.list)' has moved to another database shard; nothing was changed, retry after a second"
                : "list '\(error.list)' is moving to another database shard; nothing was changed, retry after a second")
    }

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
