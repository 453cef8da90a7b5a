/// A request addressed to one list touched a list placed on another shard ("delete for everyone"
/// or "clear for everyone" reaching a peer's list elsewhere). Nothing of the request was written:
/// the body threw inside its own transaction. Cross-shard writes need the outbox of issue 43's
/// item 3, not built yet.
public struct CrossShardError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The list the request is addressed to.
    public let list: String
    /// The list it touched on another shard.
    public let other: String

    public var description: String {
        "list '\(other)' is on another shard than '\(list)'; requests that reach two shards are not supported yet"
    }
}
