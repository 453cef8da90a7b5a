/// One cell of the call list: consecutive calls grouped the way Telegram groups them.
///
/// A value type whose fields live in one immutable box: diffing and windowing copy rows a lot,
/// and a copy then costs one reference count instead of one per string and array.
///
/// Decodable so clients can read the wire form; the server writes it with RecentsAPI's
/// `JSONWriter`, the one encoder of rows (Core does no I/O and has no JSON writer).
public struct Row: Decodable, Sendable, Hashable, Identifiable {
    /// The row's members, in the contract's JSON order.
    @usableFromInline
    struct Fields: Decodable, Sendable, Hashable {
        @usableFromInline var id: String
        @usableFromInline var peer: Peer
        @usableFromInline var count: Int
        @usableFromInline var callIds: [String]
        @usableFromInline var timestamp: Int64
        @usableFromInline var missed: Bool
        @usableFromInline var incoming: Bool
        @usableFromInline var outgoing: Bool
        @usableFromInline var video: Bool
        @usableFromInline var duration: Int?
        @usableFromInline var status: RowStatus
        @usableFromInline var revealed: Bool
        @usableFromInline var editing: Bool
        @usableFromInline var options: [RowOption]
    }

    /// The immutable box shared by copies of a row.
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let fields: Fields

        @usableFromInline
        init(_ fields: Fields) { self.fields = fields }
    }

    @usableFromInline
    var storage: Storage

    /// Creates a row from its fields.
    public init(
        id: String, peer: Peer, count: Int, callIds: [String], timestamp: Int64, missed: Bool,
        incoming: Bool, outgoing: Bool, video: Bool, duration: Int?, status: RowStatus,
        revealed: Bool, editing: Bool, options: [RowOption] = RowOption.rowOptions
    ) {
        storage = Storage(
            Fields(
                id: id, peer: peer, count: count, callIds: callIds, timestamp: timestamp, missed: missed,
                incoming: incoming, outgoing: outgoing, video: video, duration: duration, status: status,
                revealed: revealed, editing: editing, options: options))
    }

    /// Rewrites fields into a fresh box (copies made earlier keep the old one).
    @inlinable
    mutating func modify(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields)
    }

    /// The id of the row's newest call.
    @inlinable
    public var id: String {
        get { storage.fields.id }
        set { modify { $0.id = newValue } }
    }

    /// The newest call's peer (its name is the one shown).
    @inlinable
    public var peer: Peer {
        get { storage.fields.peer }
        set { modify { $0.peer = newValue } }
    }

    /// The number of calls in the row ("(2)" in the cell).
    @inlinable
    public var count: Int {
        get { storage.fields.count }
        set { modify { $0.count = newValue } }
    }

    /// The row's call ids, newest first.
    @inlinable
    public var callIds: [String] {
        get { storage.fields.callIds }
        set { modify { $0.callIds = newValue } }
    }

    /// The newest call's timestamp (Unix seconds).
    @inlinable
    public var timestamp: Int64 {
        get { storage.fields.timestamp }
        set { modify { $0.timestamp = newValue } }
    }

    /// Whether the row's calls are missed (the row's missed class).
    @inlinable
    public var missed: Bool {
        get { storage.fields.missed }
        set { modify { $0.missed = newValue } }
    }

    /// Whether some call in the row is incoming.
    @inlinable
    public var incoming: Bool {
        get { storage.fields.incoming }
        set { modify { $0.incoming = newValue } }
    }

    /// Whether some call in the row is outgoing.
    @inlinable
    public var outgoing: Bool {
        get { storage.fields.outgoing }
        set { modify { $0.outgoing = newValue } }
    }

    /// Whether the row's calls are video calls.
    @inlinable
    public var video: Bool {
        get { storage.fields.video }
        set { modify { $0.video = newValue } }
    }

    /// The call's duration when the row holds one call, else nil (encoded as `null`).
    @inlinable
    public var duration: Int? {
        get { storage.fields.duration }
        set { modify { $0.duration = newValue } }
    }

    /// The row's status, derived from `missed`, `incoming` and `outgoing`.
    @inlinable
    public var status: RowStatus {
        get { storage.fields.status }
        set { modify { $0.status = newValue } }
    }

    /// Whether the row's right-side options are open.
    @inlinable
    public var revealed: Bool {
        get { storage.fields.revealed }
        set { modify { $0.revealed = newValue } }
    }

    /// Whether the list is in edit mode.
    @inlinable
    public var editing: Bool {
        get { storage.fields.editing }
        set { modify { $0.editing = newValue } }
    }

    /// The right-side options, innermost first.
    @inlinable
    public var options: [RowOption] {
        get { storage.fields.options }
        set { modify { $0.options = newValue } }
    }

    /// Decodes a row from the contract's JSON.
    public init(from decoder: any Decoder) throws {
        storage = Storage(try Fields(from: decoder))
    }

    /// Field-wise equality; rows sharing a box are equal without looking.
    @inlinable
    public static func == (a: Row, b: Row) -> Bool {
        a.storage === b.storage || a.storage.fields == b.storage.fields
    }

    /// Hashes the fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
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
        let x = a.storage.fields
        let y = b.storage.fields
        if x.timestamp != y.timestamp { return x.timestamp > y.timestamp }
        return Bytewise.less(y.id, x.id)
    }
}

extension ListDiff where ID == String {
    /// The diff of two row arrays in API order (`Row.precedes`): the ordered fast path, compiled for rows.
    public static func rows(from old: [Row], to new: [Row]) throws(DiffError) -> ListDiff<String> {
        try diff(from: old, to: new, by: Row.precedes)
    }
}
