/// The other party of a call.
public struct Peer: Codable, Sendable, Hashable {
    /// The peer's id, in the list-name alphabet (it names the peer's own list).
    public var id: String
    /// The display name; defaults to `id` on input.
    public var name: String

    /// Creates a peer; without a name the id stands for it, as the server does for a post without one.
    public init(id: String, name: String? = nil) {
        self.id = id
        self.name = name ?? id
    }
}

/// Which side started the call.
public enum CallDirection: String, Codable, Sendable, Hashable, CaseIterable {
    /// The peer called.
    case incoming
    /// The user called.
    case outgoing
}

/// How the call ended.
public enum EndReason: String, Codable, Sendable, Hashable, CaseIterable {
    /// Ended normally by either side.
    case hangup
    /// Not answered.
    case missed
    /// The other side was busy.
    case busy
    /// The connection dropped.
    case disconnect
}

/// One stored call record: the unit the store keeps and rows are built from.
public typealias Call = CallRecord<String>

extension CallRecord {
    // Generic types cannot hold static stored properties, so the limits are computed (constants, inlined).
    /// Allowed durations in seconds.
    @inlinable public static var durationRange: ClosedRange<Int> { 0...86_400 }
    /// Allowed timestamps: 1970 to 2100.
    @inlinable public static var timestampRange: ClosedRange<Int64> { 0...4_102_444_800 }
    /// Allowed peer-name lengths, in characters.
    @inlinable public static var peerNameLengthRange: ClosedRange<Int> { 1...256 }
    /// The longest peer name in UTF-8 bytes: 256 characters of up to 4 bytes each. A character
    /// may be any number of scalars ("a" and 30,000 combining marks is one), so characters alone
    /// bound nothing.
    @inlinable public static var peerNameMaximumBytes: Int { 1024 }
}

extension CallRecord where ID == String {
    /// Every rule this call breaks, as (field, message) pairs; empty when the call is valid.
    ///
    /// Field names are the JSON member paths (`peer.id`), so the API can report them as-is.
    public func validationErrors() -> [FieldError] {
        var errors: [FieldError] = []
        if !Identifier.isValidId(id) {
            errors.append(FieldError(field: "id", message: Identifier.idRule))
        }
        if !Identifier.isValidListName(peer.id) {
            errors.append(FieldError(field: "peer.id", message: Identifier.listNameRule))
        }
        if let problem = PeerName.problem(peer.name) {
            errors.append(FieldError(field: "peer.name", message: problem))
        }
        if !Call.durationRange.contains(duration) {
            errors.append(.outOfRange("duration", Call.durationRange))
        }
        if !Call.timestampRange.contains(timestamp) {
            errors.append(.outOfRange("timestamp", Call.timestampRange))
        }
        return errors
    }
}

/// One broken rule of an input value: which member, and what is wrong with it.
public struct FieldError: Codable, Sendable, Hashable, Error {
    /// The JSON member path, e.g. `direction` or `calls[3].direction`.
    public var field: String
    /// What is wrong, for people.
    public var message: String

    /// Creates an error.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// An integer member outside `range`: "is out of range: must be an integer from 0 to 86400".
    public static func outOfRange<Bound: BinaryInteger>(_ field: String, _ range: ClosedRange<Bound>) -> FieldError {
        FieldError(
            field: field, message: "is out of range: must be an integer from \(range.lowerBound) to \(range.upperBound)"
        )
    }

    /// The same error, reported under a prefix such as `calls[3]`.
    public func prefixed(_ prefix: String) -> FieldError {
        FieldError(field: "\(prefix).\(field)", message: message)
    }
}
