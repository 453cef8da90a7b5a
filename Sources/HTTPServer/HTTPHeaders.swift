/// An ordered list of header fields with case-insensitive lookup; repeated fields are kept.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in the order they were received or added.
    public private(set) var fields: [(name: String, value: String)]

    /// An empty header list.
    public init() { fields = [] }

    /// A header list from name/value pairs, in order.
    public init(_ pairs: [(String, String)]) { fields = pairs.map { (name: $0.0, value: $0.1) } }

    /// Wraps already-parsed fields.
    init(fields: [(name: String, value: String)]) { self.fields = fields }

    /// A header list from a literal; order follows the literal.
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The number of fields.
    public var count: Int { fields.count }

    /// The first value for `name` (case-insensitive), or nil.
    public subscript(name: String) -> String? {
        for field in fields where Self.equalsIgnoringCase(field.name, name) { return field.value }
        return nil
    }

    /// All values for `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.equalsIgnoringCase($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(_ name: String, _ value: String) { fields.append((name: name, value: value)) }

    /// Replaces every field named `name` with a single one.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) { fields.removeAll { Self.equalsIgnoringCase($0.name, name) } }

    /// Iterates fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    @inline(__always) static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }

    /// ASCII case-insensitive comparison (field names are ASCII tokens, RFC 9110 §5.1).
    static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { ua in
            b.withUTF8 { ub in
                guard ua.count == ub.count else { return false }
                for i in 0..<ua.count where lower(ua[i]) != lower(ub[i]) {
                    return false
                }
                return true
            }
        }
    }
}
