/// One shard of a sharded store as `/metrics` shows it.
public struct ShardStatus: Sendable, Hashable {
    /// The shard's name in the placement file.
    public let name: String
    /// Its writer's counters.
    public let metrics: StoreMetrics
    /// Whether its writes reach the disk (the last write's outcome).
    public let health: StoreHealth
    /// Its outbox's entries not yet applied on their peers' shards ("Delete for everyone").
    public var outboxPending = 0
    /// Seconds the oldest of them has waited (0: none waits).
    public var outboxOldestSeconds: Int64 = 0
}
