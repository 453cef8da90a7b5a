/// The shared UI state of a list: edit mode, the one row whose options are revealed, and the seen mark.
public struct ListState: Codable, Sendable, Hashable {
    /// Edit mode ("Edit" / "Done" in Telegram's call list).
    public var editing: Bool
    /// The id of the row whose right-side options are open, or nil when every row is closed.
    public var revealedRowId: String?
    /// The seen mark (Unix seconds): missed calls at or before it are seen on every device; 0 when
    /// nothing was ever marked.
    public var seenThrough: Int64

    /// Creates a state; the default is not editing, every row closed and nothing seen.
    public init(editing: Bool = false, revealedRowId: String? = nil, seenThrough: Int64 = 0) {
        self.editing = editing
        self.revealedRowId = revealedRowId
        self.seenThrough = seenThrough
    }

    private enum CodingKeys: String, CodingKey {
        case editing, revealedRowId, seenThrough
    }

    /// Decodes a state; a `seenThrough` an older encoder did not write is 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        editing = try container.decode(Bool.self, forKey: .editing)
        revealedRowId = try container.decodeIfPresent(String.self, forKey: .revealedRowId)
        seenThrough = try container.decodeIfPresent(Int64.self, forKey: .seenThrough) ?? 0
    }
}
