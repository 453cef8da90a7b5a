import Glibc

/// An ordered list of header fields with case-insensitive lookup; repeated fields are kept.
///
/// A parsed request's fields stay as the bytes they arrived in (`ReceivedFields`): a value becomes
/// a `String` when it is read, and every field when one is changed; fields built in code are
/// strings from the start.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// Fields built or changed in code; empty while `received` holds the fields.
    private var built: [(name: String, value: String)]
    /// A parsed request's fields until one is changed (two stored properties rather than an enum:
    /// a response adds several fields, and each add then stays an append in place).
    private var received: ReceivedFields?

    /// The fields in the order they were received or added.
    public var fields: [(name: String, value: String)] { received?.strings() ?? built }

    /// An empty header list.
    public init() { built = [] }

    /// A header list from name/value pairs, in order.
    public init(_ pairs: [(String, String)]) { built = pairs.map { (name: $0.0, value: $0.1) } }

    /// A request's fields as the parser found them.
    init(received: ReceivedFields) {
        built = []
        self.received = received
    }

    /// A header list from a literal; order follows the literal.
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The number of fields.
    public var count: Int { received?.spans.count ?? built.count }

    /// The first value for `name` (case-insensitive), or nil.
    public subscript(name: String) -> String? {
        if let received {
            for index in received.spans.indices where received.isNamed(index, name) { return received.value(index) }
            return nil
        }
        for field in built where Self.equalsIgnoringCase(field.name, name) { return field.value }
        return nil
    }

    /// All values for `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        if let received {
            for index in received.spans.indices where received.isNamed(index, name) {
                values.append(received.value(index))
            }
        } else {
            for field in built where Self.equalsIgnoringCase(field.name, name) { values.append(field.value) }
        }
        return values
    }

    /// `body`'s answer for the bytes of the value of `name` (case-insensitive) when exactly one field
    /// has that name; nil when none or several do. A received value is read where it arrived,
    /// without becoming a `String`, for what runs on every request (a token's fast path).
    public func withSoleValue<R>(of name: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        if let received {
            var found: Int?
            for index in received.spans.indices where received.isNamed(index, name) {
                guard found == nil else { return nil }
                found = index
            }
            guard let found else { return nil }
            let range = received.spans[found].value
            return received.bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
        }
        var found: String?
        for field in built where Self.equalsIgnoringCase(field.name, name) {
            guard found == nil else { return nil }
            found = field.value
        }
        guard var value = found else { return nil }
        return value.withUTF8(body)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Turns received fields into built ones, before a change.
    private mutating func build() {
        guard let received else { return }
        built = received.strings()
        self.received = nil
    }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(_ name: String, _ value: String) {
        if received != nil { build() }
        // A response gets a few fields one by one: growing from 1 to 2 to 4 was three allocations.
        if built.capacity == 0 { built.reserveCapacity(4) }
        built.append((name: name, value: value))
    }

    /// Replaces every field named `name` with a single one.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Adds `token` to the comma-separated list field `name` (such as `Vary`, RFC 9110 §5.6.1),
    /// unless a value of it already lists `token` (ASCII case-insensitively) or `*`. An existing
    /// field is extended in place, so the answer keeps one field and nothing is split or copied
    /// when the token is there: this runs on every cacheable answer.
    public mutating func addListToken(_ token: String, to name: String) {
        if received != nil { build() }
        var first: Int?
        for index in built.indices where Self.equalsIgnoringCase(built[index].name, name) {
            if Self.list(built[index].value, holds: token) { return }
            if first == nil { first = index }
        }
        guard let first else { return add(name, token) }
        built[first].value += ", " + token
    }

    /// Whether the list `value` has a member equal to `token` (ASCII case-insensitively) or `*`.
    static func list(_ value: String, holds token: String) -> Bool {
        value.withUTF8Bytes { list in
            token.withUTF8Bytes { token in
                if endsWithMember(list, token) { return true }
                // Index loops with the length compared first: a closure per member was most of what
                // an authenticated read's `Vary` check cost (callgrind, issue 42).
                var start = 0
                while start <= list.count {
                    var end = start
                    while end < list.count && list[end] != UInt8(ascii: ",") { end += 1 }
                    var low = start
                    var high = end
                    while low < high && (list[low] == 0x20 || list[low] == 0x09) { low += 1 }
                    while high > low && (list[high - 1] == 0x20 || list[high - 1] == 0x09) { high -= 1 }
                    if high - low == 1 && list[low] == UInt8(ascii: "*") { return true }
                    if high - low == token.count {
                        var same = true
                        for i in 0..<token.count where lower(list[low + i]) != lower(token[i]) {
                            same = false
                            break
                        }
                        if same { return true }
                    }
                    start = end + 1
                }
                return false
            }
        }
    }

    /// Whether `list`'s last member is `token` byte for byte: the usual case (the token was
    /// written last, in the same case, as `Exchange.send` writes `Vary`), told by one `memcmp`
    /// rather than by reading every member.
    private static func endsWithMember(
        _ list: UnsafeBufferPointer<UInt8>, _ token: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard let listBase = list.baseAddress, let tokenBase = token.baseAddress, list.count >= token.count,
            memcmp(listBase + (list.count - token.count), tokenBase, token.count) == 0
        else { return false }
        var i = list.count - token.count - 1
        while i >= 0 && (list[i] == 0x20 || list[i] == 0x09) { i -= 1 }
        return i < 0 || list[i] == UInt8(ascii: ",")
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        if received != nil { build() }
        built.removeAll { Self.equalsIgnoringCase($0.name, name) }
    }

    /// Iterates fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    @inline(__always) static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }

    /// ASCII case-insensitive comparison (field names are ASCII tokens, RFC 9110 §5.1).
    public static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        // Most names differ in length, which a native string knows without a closure or a copy.
        guard a.utf8.count == b.utf8.count else { return false }
        return a.withUTF8Bytes { ua in b.withUTF8Bytes { ub in equalsIgnoringCase(ua, ub) } }
    }

    /// ASCII case-insensitive comparison of two byte strings (a received field name and a wanted one).
    public static func equalsIgnoringCase(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where lower(a[i]) != lower(b[i]) { return false }
        return true
    }
}
