/// Bounds on what clients can make the API hold: in-memory tables and parked time, each with its
/// documented default, stated here once (docs/ARCHITECTURE.md, "Memory bounds"). Over a bound the
/// caches forget what was used least recently (answers stay correct, only slower); parked
/// long-polls are refused with 503, and a list's streams and long-polls beyond its caps with 429.
public struct MemoryLimits: Sendable, Equatable {
    /// Bytes of encoded `GET rows` answers the view cache keeps: one view can be 300 KB, so the
    /// bound is bytes, not entries.
    public var viewCacheBytes = 64 * 1024 * 1024
    /// Lists whose current version is kept in memory.
    public var listHeads = 100_000
    /// Long-polls parked at once; beyond it a `wait` gets 503 `overloaded`.
    public var longPolls = 16_384
    /// Long-polls one list may have parked at once; beyond it a `wait` gets 429
    /// `too-many-live-requests`. One person's devices each poll once (a page polls only where
    /// it cannot stream), so 32 leaves room for many devices and tabs, and none for a flood.
    public var longPollsPerList = 32
    /// Event streams one list may have open at once; beyond it 429 `too-many-live-requests`. A
    /// browser shares one stream per list between its tabs and an app opens one per device, so
    /// 32 fits a person's phones, tablets and computers, several browsers each, with room to spare.
    public var streamsPerList = 32
    /// Longest a long-poll is held, in seconds; a larger `wait` is clamped to it.
    public var maxWait = 30

    /// The documented defaults.
    public init() {}
}
