/// What the peer's info page calls one call: Telegram's `stringForCallType` rule.
///
/// The words of Telegram's call-list info page (`ItemListCallListItem`): a dropped connection is
/// "Cancelled" whoever called; an unanswered or busy call is "Missed" for the callee and
/// "Cancelled" for the caller; a call that was hung up is "Incoming" or "Outgoing". Whether it was
/// a video call is a separate flag, not part of the kind.
public enum CallKind: String, Codable, Sendable, Hashable, CaseIterable {
    /// An answered call the peer made.
    case incoming
    /// An answered call the user made.
    case outgoing
    /// An incoming call nobody answered, or one that found the user busy.
    case missed
    /// An outgoing call that was not answered, found the peer busy, or any call whose connection dropped.
    case cancelled

    /// The kind of a call that went `direction` and ended with `endReason`.
    @inlinable
    public init(direction: CallDirection, endReason: EndReason) {
        switch (endReason, direction) {
        case (.disconnect, _): self = .cancelled
        case (.missed, .incoming), (.busy, .incoming): self = .missed
        case (.missed, .outgoing), (.busy, .outgoing): self = .cancelled
        case (.hangup, .incoming): self = .incoming
        case (.hangup, .outgoing): self = .outgoing
        }
    }
}

extension CallRecord {
    /// The call's kind on the info page (`CallKind`).
    @inlinable
    public var kind: CallKind { CallKind(direction: direction, endReason: endReason) }
}
