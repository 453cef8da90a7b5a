import Synchronization
import SystemSupport

/// Token buckets by client (issue 25, item 6), in a bounded table: the least recently used buckets
/// go first, so memory stays fixed however many clients come and go.
///
/// The table is split in shards, each behind its own lock held for one lookup and a few integer
/// operations, so clients contend only when they hash to the same shard, and then for nanoseconds:
/// a limited client is refused in the same few steps as any other is admitted, and never waits.
public final class RateLimiter: Sendable {
    /// Shards, a power of two: enough that event-loop threads rarely meet on one lock.
    public static let shardCount = 16

    /// Requests per second sustained (bursts to twice that).
    public let rate: Int
    /// The most buckets kept, over all shards.
    public let capacity: Int
    private let shards: [Shard]
    private let clock: @Sendable () -> UInt64

    private final class Shard: Sendable {
        let table: Mutex<LRUTable<RateLimitKey, TokenBucket>>

        init(capacity: Int) {
            table = Mutex(LRUTable(capacity: capacity))
        }
    }

    /// A limiter of `rate` requests per second per client, keeping at most `buckets` buckets,
    /// reading monotonic nanoseconds from `clock`.
    public init(rate: Int, buckets: Int, clock: @escaping @Sendable () -> UInt64 = SystemClock.monotonicNanoseconds) {
        self.rate = max(1, rate)
        let perShard = max(1, buckets / Self.shardCount)
        self.capacity = perShard * Self.shardCount
        self.shards = (0..<Self.shardCount).map { _ in Shard(capacity: perShard) }
        self.clock = clock
    }

    /// Admits one request of `key`'s client: nil when it may go on, else the whole seconds to wait
    /// (at least 1) before its next request would be.
    public func admit(_ key: RateLimitKey) -> Int? {
        let now = clock()
        let rate = self.rate
        let wait = shards[key.shard(of: Self.shardCount)].table.withLock { table in
            table.update(key, cost: 1, default: { TokenBucket(rate: rate, now: now) }) { $0.take(now: now) }
        }
        guard wait > 0 else { return nil }
        return Int((wait + TokenBucket.unit - 1) / TokenBucket.unit)
    }

    /// Buckets held now, never above `capacity`.
    public var bucketCount: Int { shards.reduce(0) { $0 + $1.table.withLock { $0.count } } }
}
