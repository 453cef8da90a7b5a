/// How a row's calls ended, as the cell's subtitle and icon show it.
public enum RowStatus: String, Codable, Sendable, Hashable, CaseIterable {
    /// The row's calls are missed (shown in red in Telegram).
    case missed
    /// Answered calls in both directions.
    case mixed
    /// Answered incoming calls only.
    case incoming
    /// Outgoing calls only.
    case outgoing
}

/// One right-side option revealed by swiping a row to the left.
public struct RowOption: Codable, Sendable, Hashable {
    /// The stable key clients send back when the option is chosen.
    public var key: String
    /// The button's title.
    public var title: String
    /// Whether the button is drawn as destructive (red).
    public var destructive: Bool

    /// Creates an option.
    public init(key: String, title: String, destructive: Bool) {
        self.key = key
        self.title = title
        self.destructive = destructive
    }

    /// "Delete": Telegram's call list offers exactly this one item behind a swipe.
    public static let delete = RowOption(key: "delete", title: "Delete", destructive: true)

    /// The options every row reveals today, innermost first (the last one is the outermost).
    public static let rowOptions: [RowOption] = [.delete]
}

/// One cell of the call list: consecutive calls grouped the way Telegram groups them.
public struct Row: Codable, Sendable, Hashable, Identifiable {
    /// The id of the row's newest call.
    public var id: String
    /// The newest call's peer (its name is the one shown).
    public var peer: Peer
    /// The number of calls in the row ("(2)" in the cell).
    public var count: Int
    /// The row's call ids, newest first.
    public var callIds: [String]
    /// The newest call's timestamp (Unix seconds).
    public var timestamp: Int64
    /// Whether the row's calls are missed (the row's missed class).
    public var missed: Bool
    /// Whether some call in the row is incoming.
    public var incoming: Bool
    /// Whether some call in the row is outgoing.
    public var outgoing: Bool
    /// Whether the row's calls are video calls.
    public var video: Bool
    /// The call's duration when the row holds one call, else nil (encoded as `null`).
    public var duration: Int?
    /// The row's status, derived from `missed`, `incoming` and `outgoing`.
    public var status: RowStatus
    /// Whether the row's right-side options are open.
    public var revealed: Bool
    /// Whether the list is in edit mode.
    public var editing: Bool
    /// The right-side options, innermost first.
    public var options: [RowOption]

    /// Creates a row from its fields.
    public init(
        id: String, peer: Peer, count: Int, callIds: [String], timestamp: Int64, missed: Bool,
        incoming: Bool, outgoing: Bool, video: Bool, duration: Int?, status: RowStatus,
        revealed: Bool, editing: Bool, options: [RowOption] = RowOption.rowOptions
    ) {
        self.id = id
        self.peer = peer
        self.count = count
        self.callIds = callIds
        self.timestamp = timestamp
        self.missed = missed
        self.incoming = incoming
        self.outgoing = outgoing
        self.video = video
        self.duration = duration
        self.status = status
        self.revealed = revealed
        self.editing = editing
        self.options = options
    }

    /// The status a row with these flags shows: missed wins, then mixed, then the one direction.
    public static func status(missed: Bool, incoming: Bool, outgoing: Bool) -> RowStatus {
        if missed { return .missed }
        if incoming && outgoing { return .mixed }
        return incoming ? .incoming : .outgoing
    }

    /// The API's row order as a strict "comes before": newest first, then id descending byte-wise.
    ///
    /// A row's id and timestamp are both its newest call's, so two rows with the same id sort
    /// together; that makes this a valid ordering for `ListDiff.diff(from:to:by:)`.
    @inlinable
    public static func precedes(_ a: Row, _ b: Row) -> Bool {
        if a.timestamp != b.timestamp { return a.timestamp > b.timestamp }
        return Bytewise.less(b.id, a.id)
    }

    /// JSON member names, in the contract's order.
    enum CodingKeys: String, CodingKey {
        case id, peer, count, callIds, timestamp, missed, incoming, outgoing, video, duration, status
        case revealed, editing, options
    }

    /// Encodes every member in the contract's order, with an explicit `"duration": null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(peer, forKey: .peer)
        try container.encode(count, forKey: .count)
        try container.encode(callIds, forKey: .callIds)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(missed, forKey: .missed)
        try container.encode(incoming, forKey: .incoming)
        try container.encode(outgoing, forKey: .outgoing)
        try container.encode(video, forKey: .video)
        try container.encode(duration, forKey: .duration)
        try container.encode(status, forKey: .status)
        try container.encode(revealed, forKey: .revealed)
        try container.encode(editing, forKey: .editing)
        try container.encode(options, forKey: .options)
    }
}

/// A window of a list: the newest `limit` rows and whether more rows follow.
public struct View: Codable, Sendable, Hashable {
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
