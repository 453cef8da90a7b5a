import RecentsCore

/// The answer to `GET …/rows/{rowId}`: one row and its calls, what Telegram's info page (the
/// row's (i) button) shows.
public struct RowInfo: Decodable, Sendable, Hashable {
    /// One call of the row as the info page lists it.
    public struct Call: Decodable, Sendable, Hashable {
        /// The call's id.
        public var id: String
        /// Unix seconds (UTC).
        public var timestamp: Int64
        /// Who called whom.
        public var direction: CallDirection
        /// How it ended.
        public var endReason: EndReason
        /// Seconds.
        public var duration: Int
        /// Whether it was a video call (Telegram's "Video" variant of the kind's word).
        public var video: Bool
        /// The word the info page shows for it.
        public var kind: Kind
    }

    /// A call's kind by Telegram's rule (docs/API.md): the four words of its info page, or one
    /// a later server sends that this client does not know (shown as the server named it).
    public enum Kind: Decodable, Sendable, Hashable {
        /// An answered incoming call.
        case incoming
        /// An answered outgoing call.
        case outgoing
        /// An incoming call not answered or refused as busy.
        case missed
        /// An outgoing call not answered, or any call whose connection dropped.
        case cancelled
        /// A kind newer than this client.
        case unknown(String)

        /// The kind Core's rule gives.
        public init(_ kind: CallKind) {
            switch kind {
            case .incoming: self = .incoming
            case .outgoing: self = .outgoing
            case .missed: self = .missed
            case .cancelled: self = .cancelled
            }
        }

        /// Decodes any string: a kind added to the wire later must not fail the whole page.
        public init(from decoder: any Decoder) throws {
            let name = try decoder.singleValueContainer().decode(String.self)
            self = CallKind(rawValue: name).map(Kind.init) ?? .unknown(name)
        }
    }

    /// The list's name.
    public var list: String
    /// The database's epoch.
    public var epoch: String
    /// The version the row shows.
    public var version: Int
    /// The row exactly as `GET …/rows` writes it.
    public var row: Row
    /// The row's calls, newest first (the order of `row.callIds`).
    public var calls: [Call]
    /// The answer's `ETag`, for `RecentsClient.rowInfo(list:rowId:view:ifNoneMatch:)` (not a JSON member).
    public var etag: String?

    private enum CodingKeys: String, CodingKey {
        case list, epoch, version, row, calls
    }
}
