/// Bounds on what clients can make the API hold: in-memory tables and parked time, each with its documented default
/// (docs/ARCHITECTURE.md, "Memory bounds"). Over a bound the caches forget what was used least
/// recently (answers stay correct, only slower); parked long-polls are refused with 503.
public struct MemoryLimits: Sendable, Equatable {
    /// Bytes of encoded `GET rows` answers the view cache keeps.
    public var viewCacheBytes = ViewCache.defaultMaximumBytes
    /// Lists whose current version is kept in memory.
    public var listHeads = ListHeads.defaultMaximumLists
    /// Long-polls parked at once; beyond it a `wait` gets 503 `overloaded`.
    public var longPolls = LongPollHub.defaultMaximumWaiters
    /// Longest a long-poll is held, in seconds; a larger `wait` is clamped to it.
    public var maxWait = QueryParameters.maximumWait

    /// The documented defaults.
    public init() {}
}
