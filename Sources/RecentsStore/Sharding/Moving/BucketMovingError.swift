/// A write reached a list whose bucket is being moved to another shard (the mover holds its
/// fence) or has moved away from this shard (the database's `moved_buckets` says so). Nothing of
/// the request was written. A moved refusal makes `ShardedListStore` read the placement file at
/// once and run the write on the new shard it names; it reaches the client only when the file
/// does not name one yet, and the same request a moment later lands there.
public struct BucketMovingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The list the request touched.
    public let list: String
    /// Its bucket.
    public let bucket: Int
    /// Whether the bucket has left this shard (else it is fenced for the last copy of a move).
    public let moved: Bool

    /// Seconds a client is told to wait: the fence lasts at most a second, and an instance reads
    /// the placement file every second.
    public static let retryAfterSeconds = 1

    public var description: String {
        moved
            ? "bucket \(bucket) of list '\(list)' moved to another shard; this instance follows the new placement within a second"
            : "bucket \(bucket) of list '\(list)' is being moved to another shard; writes resume within a second"
    }
}
