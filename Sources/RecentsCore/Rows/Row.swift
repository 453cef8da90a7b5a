/// One cell of the call list: consecutive calls grouped the way Telegram groups them.
///
/// A value type whose fields live in one immutable box: diffing and windowing copy rows a lot,
/// and a copy then costs one reference count instead of one per string and array.
///
/// Decodable so clients can read the wire form; the server writes it with RecentsAPI's
/// `JSONWriter`, the one encoder of rows (Core does no I/O and has no JSON writer).
@dynamicMemberLookup
public struct Row: Decodable, Sendable, Hashable, Identifiable {
    /// The row's members, in the contract's JSON order; a row reads and writes each as its own
    /// (`row.count`, `row.revealed = true`) through `subscript(dynamicMember:)`.
    public struct Fields: Decodable, Sendable, Hashable {
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

    /// The id of the row's newest call; declared, not looked up, because `Identifiable` requires it.
    @inlinable
    public var id: String {
        get { storage.fields.id }
        set { modify { $0.id = newValue } }
    }

    /// Reads or rewrites one of the row's `Fields`; inlined, so a literal key path compiles to
    /// a direct access to the box.
    @inlinable
    public subscript<Value>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
        get { storage.fields[keyPath: field] }
        set { modify { $0[keyPath: field] = newValue } }
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
