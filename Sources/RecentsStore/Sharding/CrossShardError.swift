/// A request addressed to one list touched a list placed on another shard. Nothing of the
/// request was written: the body threw inside its own transaction. "Delete for everyone" is the
/// one change that reaches another shard, through the outbox (`ShardWriter.deletePeerCopies`);
/// any other touch of another shard's list, a read included, ends here.
public struct CrossShardError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The list the request is addressed to.
    public let list: String
    /// The list it touched on another shard.
    public let other: String

    public var description: String {
        "list '\(other)' is on another shard than '\(list)'; only a delete for everyone reaches two shards"
    }
}
