/// What names a call record: a stored call's id (`String`), or a posted one's (`String?`: nil lets the server make it).
public protocol CallRecordID: Sendable, Hashable, Codable {
    /// Reads the id member; an optional id may be absent.
    static func decodeID<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Self
    /// Writes the id member; an absent optional id is omitted (the server refuses `null`).
    func encodeID<Key: CodingKey>(to container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws
}

extension String: CallRecordID {
    /// Reads a required id.
    public static func decodeID<Key: CodingKey>(
        from container: KeyedDecodingContainer<Key>, forKey key: Key
    ) throws -> String {
        try container.decode(String.self, forKey: key)
    }

    /// Writes the id.
    public func encodeID<Key: CodingKey>(to container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        try container.encode(self, forKey: key)
    }
}

extension Optional: CallRecordID where Wrapped == String {
    /// Reads an id that may be absent.
    public static func decodeID<Key: CodingKey>(
        from container: KeyedDecodingContainer<Key>, forKey key: Key
    ) throws -> String? {
        try container.decodeIfPresent(String.self, forKey: key)
    }

    /// Writes the id, or nothing when it is nil.
    public func encodeID<Key: CodingKey>(to container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        try container.encodeIfPresent(self, forKey: key)
    }
}

/// One call's members: stored (`Call`, the id is known) or posted (`NewCall`, the server may make the id).
public struct CallRecord<ID: CallRecordID>: Sendable, Hashable {
    /// The call's id, unique within its list.
    public var id: ID
    /// The other party.
    public var peer: Peer
    /// Who called whom.
    public var direction: CallDirection
    /// How it ended.
    public var endReason: EndReason
    /// Whether it was a video call.
    public var video: Bool
    /// Seconds, `Call.durationRange`.
    public var duration: Int
    /// Unix seconds (UTC), `Call.timestampRange`.
    public var timestamp: Int64

    /// Creates a call; defaults describe an answered voice call of zero length (the server's defaults).
    public init(
        id: ID, peer: Peer, direction: CallDirection, endReason: EndReason = .hangup,
        video: Bool = false, duration: Int = 0, timestamp: Int64
    ) {
        self.id = id
        self.peer = peer
        self.direction = direction
        self.endReason = endReason
        self.video = video
        self.duration = duration
        self.timestamp = timestamp
    }

    /// The same call under another id (a post becoming a stored call, or the reverse).
    @inlinable
    public func withID<Other: CallRecordID>(_ other: Other) -> CallRecord<Other> {
        CallRecord<Other>(
            id: other, peer: peer, direction: direction, endReason: endReason, video: video, duration: duration,
            timestamp: timestamp)
    }

    /// A call is missed when it came in and nobody answered (Telegram's `.missed` class).
    @inlinable
    public var isMissed: Bool { direction == .incoming && endReason == .missed }
}

extension CallRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, peer, direction, endReason, video, duration, timestamp
    }

    /// Decodes every member as required, except an optional id, which may be absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try ID.decodeID(from: container, forKey: .id)
        peer = try container.decode(Peer.self, forKey: .peer)
        direction = try container.decode(CallDirection.self, forKey: .direction)
        endReason = try container.decode(EndReason.self, forKey: .endReason)
        video = try container.decode(Bool.self, forKey: .video)
        duration = try container.decode(Int.self, forKey: .duration)
        timestamp = try container.decode(Int64.self, forKey: .timestamp)
    }

    /// Encodes every member, omitting an optional id that is nil.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try id.encodeID(to: &container, forKey: .id)
        try container.encode(peer, forKey: .peer)
        try container.encode(direction, forKey: .direction)
        try container.encode(endReason, forKey: .endReason)
        try container.encode(video, forKey: .video)
        try container.encode(duration, forKey: .duration)
        try container.encode(timestamp, forKey: .timestamp)
    }
}

extension CallRecord where ID == String? {
    /// Creates a call to post without an id: the server makes one.
    public init(
        peer: Peer, direction: CallDirection, endReason: EndReason = .hangup, video: Bool = false, duration: Int = 0,
        timestamp: Int64
    ) {
        self.init(
            id: nil, peer: peer, direction: direction, endReason: endReason, video: video, duration: duration,
            timestamp: timestamp)
    }

    /// The post of a complete call: every member sent as it is (a re-post, or a generated history).
    public init(_ call: Call) {
        self = call.withID(Optional(call.id))
    }
}
