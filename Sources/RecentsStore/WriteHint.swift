/// What a write request will look at, so that a back end may read it for a whole batch at once
/// (PostgreSQL: one statement locks every hinted list, one fetches every hinted call). A hint
/// never changes what a write does or sees: anything it misses is read when the body asks.
public struct WriteHint: Sendable {
    /// The lists the body will read or change.
    public var lists: [String]
    /// Call ids the body will look up, by list.
    public var calls: [String: [String]]

    public init(lists: [String] = [], calls: [String: [String]] = [:]) {
        self.lists = lists
        self.calls = calls
    }
}
