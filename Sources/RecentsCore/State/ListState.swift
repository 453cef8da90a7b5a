/// The shared UI state of a list: edit mode and the one row whose options are revealed.
public struct ListState: Codable, Sendable, Hashable {
    /// Edit mode ("Edit" / "Done" in Telegram's call list).
    public var editing: Bool
    /// The id of the row whose right-side options are open, or nil when every row is closed.
    public var revealedRowId: String?

    /// Creates a state; the default is not editing with every row closed.
    public init(editing: Bool = false, revealedRowId: String? = nil) {
        self.editing = editing
        self.revealedRowId = revealedRowId
    }
}
