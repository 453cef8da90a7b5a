import RecentsCore

/// A call to store, as `POST …/calls` takes it: a nil id is omitted (the server makes one), and the
/// init's defaults (`hangup`, voice, 0 s) are the server's own, so posting them is the same as leaving them out.
public typealias NewCall = CallRecord<String?>

/// The version and epoch every write answers.
public struct WriteReply: Codable, Sendable, Hashable {
    /// The list's version after the write (unchanged when nothing changed).
    public var version: Int
    /// The database's epoch.
    public var epoch: String
}

/// The answer to `POST …/calls`.
public struct PostCallsReply: Codable, Sendable, Hashable {
    /// The list's version after the write.
    public var version: Int
    /// The database's epoch.
    public var epoch: String
    /// The stored calls in request order, with server-made ids and defaults.
    public var calls: [Call]
}

/// The answer to `PUT …/reveal`.
public struct RevealReply: Codable, Sendable, Hashable {
    /// The list's version after the write.
    public var version: Int
    /// The database's epoch.
    public var epoch: String
    /// The open row after the write, or nil.
    public var revealedRowId: String?
    /// Whether the request changed the state.
    public var changed: Bool
}

/// The answer to `PUT …/editing`.
public struct EditingReply: Codable, Sendable, Hashable {
    /// The list's version after the write.
    public var version: Int
    /// The database's epoch.
    public var epoch: String
    /// The edit mode after the write.
    public var editing: Bool
    /// The open row after the write, or nil.
    public var revealedRowId: String?
}

/// The answer to `POST …/gesture`: where the row settles.
public struct GestureReply: Codable, Sendable, Hashable {
    /// The list's version after the write.
    public var version: Int
    /// The database's epoch.
    public var epoch: String
    /// Open, closed or selected.
    public var outcome: GestureOutcome
    /// The selected option when `outcome` is `selected`.
    public var option: RowOption?
    /// The offset to animate the row to (minus the options' width when open, else 0).
    public var offset: Double
}

/// The answer to `POST …/options/{key}` and `POST …/clear`.
public struct DeletionReply: Codable, Sendable, Hashable {
    /// The list's version after the write.
    public var version: Int
    /// The database's epoch.
    public var epoch: String
    /// The calls deleted from this list, newest first.
    public var deletedCallIds: [String]
}

/// The answer to `GET /v1/lists/{list}`.
public struct ListSummary: Codable, Sendable, Hashable {
    /// The list's name.
    public var list: String
    /// The database's epoch.
    public var epoch: String
    /// The list's current version.
    public var version: Int
    /// The edit mode.
    public var editing: Bool
    /// The open row, or nil.
    public var revealedRowId: String?
    /// The calls not deleted.
    public var callCount: Int
    /// The seen mark in Unix seconds (nil from a server older than the badge).
    public var seenThrough: Int64?
    /// The missed calls after the seen mark (nil from a server older than the badge).
    public var unseenMissed: Int?
}

/// The answer to `POST …/seen`: the mark after the write and the badge it leaves.
public struct SeenReply: Codable, Sendable, Hashable {
    /// The list's version after the write (unchanged when the mark did not move).
    public var version: Int
    /// The database's epoch.
    public var epoch: String
    /// The seen mark after the write, Unix seconds.
    public var seenThrough: Int64
    /// The missed calls after the mark.
    public var unseenMissed: Int
}

/// The answer to `GET …/rows`: one window of a view.
public struct RowsPage: Decodable, Sendable, Hashable {
    /// The list's name.
    public var list: String
    /// The database's epoch.
    public var epoch: String
    /// The version the rows show.
    public var version: Int
    /// The view's filter.
    public var filter: CallFilter
    /// The view's window size.
    public var limit: Int
    /// The view's UTC offset in minutes.
    public var tz: Int
    /// The edit mode.
    public var editing: Bool
    /// The open row, or nil.
    public var revealedRowId: String?
    /// Whether rows exist beyond `limit`.
    public var hasMore: Bool
    /// The missed calls after the seen mark (nil from a server older than the badge).
    public var unseenMissed: Int?
    /// The rows, newest first.
    public var rows: [Row]

    /// The view parameters the page was computed for.
    public var view: ViewParameters { ViewParameters(filter: filter, limit: limit, tz: tz) }
}
