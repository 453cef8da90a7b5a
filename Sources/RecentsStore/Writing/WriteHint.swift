/// What a write request will look at, so that a back end may read it for a whole batch at once
/// (PostgreSQL: one statement locks every hinted list, one fetches every hinted call). A hint
/// never changes what a write does or sees: anything it misses is read when the body asks.
struct WriteHint: Sendable, Equatable {
    /// The lists the body will read or change.
    var lists: [String]
    /// Call ids the body will look up, by list.
    var calls: [String: [String]]

    init(lists: [String] = [], calls: [String: [String]] = [:]) {
        self.lists = lists
        self.calls = calls
    }
}
