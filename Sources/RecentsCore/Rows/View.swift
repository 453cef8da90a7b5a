/// A window of a list: the newest `limit` rows and whether more rows follow.
public struct View: Decodable, Sendable, Hashable {
    /// The rows, newest first.
    public var rows: [Row]
    /// Whether some participating call exists beyond the last row.
    public var hasMore: Bool

    /// Creates a view.
    public init(rows: [Row], hasMore: Bool) {
        self.rows = rows
        self.hasMore = hasMore
    }

    /// A view with no rows and nothing more.
    public static let empty = View(rows: [], hasMore: false)
}
