import RecentsCore

/// A call to store, as `POST …/calls` takes it: absent members get the server's defaults.
public struct NewCall: Codable, Sendable, Hashable {
    /// The other party: `id` in the list-name alphabet, `name` defaulting to the id.
    public struct Peer: Codable, Sendable, Hashable {
        /// The peer's id (it names the peer's own list).
        public var id: String
        /// The display name, or nil for the id.
        public var name: String?

        /// Creates a peer reference.
        public init(id: String, name: String? = nil) {
            self.id = id
            self.name = name
        }
    }

    /// The call's id, or nil to let the server make one.
    public var id: String?
    /// The other party.
    public var peer: Peer
    /// Who called whom.
    public var direction: CallDirection
    /// How it ended (server default `hangup`).
    public var endReason: EndReason?
    /// Whether it was a video call (server default false).
    public var video: Bool?
    /// Seconds (server default 0).
    public var duration: Int?
    /// Unix seconds (UTC).
    public var timestamp: Int64

    /// Creates a call to post; nil members are omitted from the body (the server refuses `null`).
    public init(
        id: String? = nil, peer: Peer, direction: CallDirection, endReason: EndReason? = nil, video: Bool? = nil,
        duration: Int? = nil, timestamp: Int64
    ) {
        self.id = id
        self.peer = peer
        self.direction = direction
        self.endReason = endReason
        self.video = video
        self.duration = duration
        self.timestamp = timestamp
    }
}

extension NewCall {
    /// The post of a complete call: every member sent as it is (a re-post, or a generated history).
    public init(_ call: Call) {
        self.init(
            id: call.id, peer: Peer(id: call.peer.id, name: call.peer.name), direction: call.direction,
            endReason: call.endReason, video: call.video, duration: call.duration, timestamp: call.timestamp)
    }
}

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
    /// The rows, newest first.
    public var rows: [Row]

    /// The view parameters the page was computed for.
    public var view: ViewParameters { ViewParameters(filter: filter, limit: limit, tz: tz) }
}
