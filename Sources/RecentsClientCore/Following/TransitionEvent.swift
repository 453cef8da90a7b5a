import RecentsCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One answer of `GET …/transitions` (or one `transition` event of the stream): Core's
/// `Transition` plus the list, versions and epoch it connects, and the views it was asked for.
public struct TransitionEvent: Sendable, Hashable {
    /// The list's name.
    public var list: String
    /// The database's epoch.
    public var epoch: String
    /// The version the old view showed, or nil for an `initial` transition (a full load).
    public var from: Int?
    /// The version the new view shows.
    public var to: Int
    /// The rows, state and animation of the change.
    public var transition: Transition
    /// The view the new rows belong to (sent as `filter`/`limit`/`tz`; not echoed by the server).
    public var view: ViewParameters
    /// The missed-calls badge at `to` (nil from a server older than the badge).
    public var unseenMissed: Int?
    /// The JSON object as the server sent it (empty when the event was built, not received): for
    /// logging or relaying it unchanged, as `recents follow --json` does.
    public var json: Data

    /// Creates an event.
    public init(
        list: String, epoch: String, from: Int?, to: Int, transition: Transition, view: ViewParameters,
        unseenMissed: Int? = nil, json: Data = Data()
    ) {
        self.list = list
        self.epoch = epoch
        self.from = from
        self.to = to
        self.transition = transition
        self.view = view
        self.unseenMissed = unseenMissed
        self.json = json
    }

    /// Whether the event is a full load that replaces whatever a model showed.
    public var isInitial: Bool { from == nil }
}

/// The wire object: Core's `Transition` members plus the list, versions and epoch around them.
struct WireTransition: Decodable {
    var list: String
    var epoch: String
    var from: Int?
    var to: Int
    var unseenMissed: Int?
    var transition: Transition

    enum CodingKeys: String, CodingKey {
        case list, epoch, from, to, unseenMissed
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        list = try container.decode(String.self, forKey: .list)
        epoch = try container.decode(String.self, forKey: .epoch)
        from = try container.decodeIfPresent(Int.self, forKey: .from)
        to = try container.decode(Int.self, forKey: .to)
        unseenMissed = try container.decodeIfPresent(Int.self, forKey: .unseenMissed)
        // The same object decodes as Core's transition: its synthesized decoding ignores the extra members.
        transition = try Transition(from: decoder)
    }
}

extension TransitionEvent {
    /// The event decoded from `json`, with the view it was requested for.
    static func decoded(_ json: Data, view: ViewParameters) throws -> TransitionEvent {
        let wire = try JSONDecoder().decode(WireTransition.self, from: json)
        return TransitionEvent(
            list: wire.list, epoch: wire.epoch, from: wire.from, to: wire.to, transition: wire.transition, view: view,
            unseenMissed: wire.unseenMissed, json: json)
    }
}
