/// One row of a shard's outbox: `peer` (placed on another shard) is to lose those of `callIds`
/// whose copy names `caller` as its peer.
struct OutboxEntry: Sendable, Hashable {
    /// The row's id in its shard's `shard_outbox` (drain order).
    let id: Int64
    /// The entry's identity on every shard (`shard_outbox_applied`).
    let token: String
    let caller: String
    let peer: String
    let callIds: [String]
}

/// A shard's outbox as `/metrics` shows it.
public struct OutboxBacklog: Sendable, Hashable {
    /// Entries committed and not yet applied on their peer's shard.
    public var pending: Int = 0
    /// When the oldest of them was committed (Unix seconds), nil when none is.
    public var oldestCreatedAt: Int64?

    /// Seconds the oldest pending entry has waited at `now` (Unix seconds); 0 when none waits.
    public func oldestAge(now: Int64) -> Int64 {
        oldestCreatedAt.map { max(0, now - $0) } ?? 0
    }
}
