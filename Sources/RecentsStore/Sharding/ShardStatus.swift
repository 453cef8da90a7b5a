/// One shard of a sharded store as `/metrics` shows it.
public struct ShardStatus: Sendable, Hashable {
    /// The shard's name in the placement file.
    public let name: String
    /// Its writer's counters.
    public let metrics: StoreMetrics
    /// Whether its writes reach the disk (the last write's outcome).
    public let health: StoreHealth
}
