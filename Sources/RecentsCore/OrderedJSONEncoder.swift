/// A compact JSON encoder that writes object members in the order `encode(to:)` encodes them.
///
/// Why: the contract fixes member order (`id`, `peer`, `count`, ...), but Foundation's
/// `JSONEncoder` on Linux emits members in hash order. Explicit `encodeNil` / `encode(nil)`
/// calls produce `null`; `encodeIfPresent` omits the member as usual. Non-finite numbers throw.
public struct OrderedJSONEncoder: Sendable {
    /// Whether types that know their JSON (rows) write it directly instead of via `encode(to:)`.
    let direct: Bool

    /// Creates an encoder.
    public init() { direct = true }

    /// An encoder that always goes through `encode(to:)` (tests compare both ways).
    init(direct: Bool) { self.direct = direct }

    /// The JSON text of `value`.
    public func encode(_ value: some Encodable) throws -> String {
        String(decoding: try encodeBytes(value), as: UTF8.self)
    }

    /// The UTF-8 bytes of the JSON text of `value`.
    public func encodeBytes(_ value: some Encodable) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        encodeNode(try encodeNode(value), to: &output)
        return output
    }

    func encodeNode(_ node: JSONNode, to output: inout [UInt8]) {
        node.write(to: &output)
    }

    func encodeNode(_ value: some Encodable) throws -> JSONNode {
        try encodeValue(value, codingPath: [], direct: direct)
    }
}

/// A JSON value under construction; containers hand out child nodes they fill later.
final class JSONNode {
    enum Value {
        case unset
        case null
        case literal(String)
        case raw([UInt8])
        case string(String)
        case array([JSONNode])
        case object([(key: String, node: JSONNode)])
    }

    var value: Value = .unset

    init(_ value: Value = .unset) { self.value = value }

    func write(to output: inout [UInt8]) {
        switch value {
        case .unset:
            output.append(contentsOf: "{}".utf8)
        case .null:
            output.append(contentsOf: "null".utf8)
        case .literal(let text):
            output.append(contentsOf: text.utf8)
        case .raw(let bytes):
            output.append(contentsOf: bytes)
        case .string(let text):
            Self.writeString(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.node.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Writes a JSON string literal: quotes, backslashes and control characters escaped, the rest as UTF-8.
    static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Ids and names rarely need escaping: copy them in one go when they do not.
        let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
            if bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                return false
            }
            output.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0xF)])
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The JSON text of a double: integral values without a fraction, like `JSONEncoder`.
    static func literal(_ value: Double, codingPath: [any CodingKey]) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: codingPath, debugDescription: "JSON has no \(value)"))
        }
        if abs(value) < 9_007_199_254_740_992, value == Double(Int64(value)) {
            return String(Int64(value))
        }
        return String(value)
    }
}

struct NodeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var direct = true
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.value {} else { node.value = .object([]) }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath, direct: direct))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.value {} else { node.value = .array([]) }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath, direct: direct)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueNodeContainer(node: node, codingPath: codingPath, direct: direct)
    }
}

/// Encodes one value into a fresh node, writing numbers, strings, booleans and rows directly.
func encodeValue(_ value: some Encodable, codingPath: [any CodingKey], direct: Bool) throws -> JSONNode {
    switch value {
    case let row as Row where direct:
        var bytes: [UInt8] = []
        bytes.reserveCapacity(400)
        row.writeJSON(to: &bytes)
        return JSONNode(.raw(bytes))
    case let text as String: return JSONNode(.string(text))
    case let flag as Bool: return JSONNode(.literal(flag ? "true" : "false"))
    case let number as Int: return JSONNode(.literal(String(number)))
    case let number as Int64: return JSONNode(.literal(String(number)))
    case let number as Double: return JSONNode(.literal(try JSONNode.literal(number, codingPath: codingPath)))
    case let number as any BinaryInteger: return JSONNode(.literal(String(number)))
    case let number as Float: return JSONNode(.literal(try JSONNode.literal(Double(number), codingPath: codingPath)))
    default:
        let node = JSONNode()
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath, direct: direct))
        return node
    }
}

struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let codingPath: [any CodingKey]
    let direct: Bool

    private func set(_ child: JSONNode, for key: Key) { set(child, named: key.stringValue) }

    private func set(_ child: JSONNode, named name: String) {
        guard case .object(var members) = node.value else { return }
        node.value = .unset
        if let index = members.firstIndex(where: { $0.key == name }) {
            members[index].node = child
        } else {
            members.append((name, child))
        }
        node.value = .object(members)
    }

    mutating func encodeNil(forKey key: Key) throws { set(JSONNode(.null), for: key) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        set(try encodeValue(value, codingPath: codingPath + [key], direct: direct), for: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = JSONNode(.object([]))
        set(child, for: key)
        return KeyedEncodingContainer(
            KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath + [key], direct: direct))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = JSONNode(.array([]))
        set(child, for: key)
        return UnkeyedNodeContainer(node: child, codingPath: codingPath + [key], direct: direct)
    }

    mutating func superEncoder() -> any Encoder {
        let child = JSONNode()
        set(child, named: "super")
        return NodeEncoder(node: child, codingPath: codingPath, direct: direct)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = JSONNode()
        set(child, for: key)
        return NodeEncoder(node: child, codingPath: codingPath + [key], direct: direct)
    }
}

struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]
    let direct: Bool

    var count: Int {
        guard case .array(let elements) = node.value else { return 0 }
        return elements.count
    }

    private func append(_ child: JSONNode) {
        guard case .array(var elements) = node.value else { return }
        node.value = .unset
        elements.append(child)
        node.value = .array(elements)
    }

    private var indexKey: IndexKey { IndexKey(intValue: count) }

    mutating func encodeNil() throws { append(JSONNode(.null)) }

    mutating func encode(_ value: some Encodable) throws {
        append(try encodeValue(value, codingPath: codingPath + [indexKey], direct: direct))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let child = JSONNode(.object([]))
        let path = codingPath + [indexKey]
        append(child)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: path, direct: direct))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = JSONNode(.array([]))
        let path = codingPath + [indexKey]
        append(child)
        return UnkeyedNodeContainer(node: child, codingPath: path, direct: direct)
    }

    mutating func superEncoder() -> any Encoder {
        let child = JSONNode()
        let path = codingPath + [indexKey]
        append(child)
        return NodeEncoder(node: child, codingPath: path, direct: direct)
    }
}

struct SingleValueNodeContainer: SingleValueEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]
    let direct: Bool

    mutating func encodeNil() throws { node.value = .null }

    mutating func encode(_ value: some Encodable) throws {
        node.value = try encodeValue(value, codingPath: codingPath, direct: direct).value
    }
}

struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(intValue: Int) {
        self.intValue = intValue
        stringValue = String(intValue)
    }

    init?(stringValue: String) { nil }
}

extension Row {
    /// Writes the row's JSON directly, exactly as `encode(to:)` would through `OrderedJSONEncoder`.
    ///
    /// Rows are most of every transition; building a node per member costs several times this.
    func writeJSON(to output: inout [UInt8]) {
        let fields = storage.fields
        func key(_ name: String, first: Bool = false) {
            if !first { output.append(UInt8(ascii: ",")) }
            JSONNode.writeString(name, to: &output)
            output.append(UInt8(ascii: ":"))
        }
        func flag(_ value: Bool) { output.append(contentsOf: (value ? "true" : "false").utf8) }
        func number(_ value: some BinaryInteger) { output.append(contentsOf: String(value).utf8) }
        func strings(_ values: [String]) {
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONNode.writeString(value, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        }
        output.append(UInt8(ascii: "{"))
        key("id", first: true)
        JSONNode.writeString(fields.id, to: &output)
        key("peer")
        output.append(UInt8(ascii: "{"))
        key("id", first: true)
        JSONNode.writeString(fields.peer.id, to: &output)
        key("name")
        JSONNode.writeString(fields.peer.name, to: &output)
        output.append(UInt8(ascii: "}"))
        key("count")
        number(fields.count)
        key("callIds")
        strings(fields.callIds)
        key("timestamp")
        number(fields.timestamp)
        key("missed")
        flag(fields.missed)
        key("incoming")
        flag(fields.incoming)
        key("outgoing")
        flag(fields.outgoing)
        key("video")
        flag(fields.video)
        key("duration")
        if let duration = fields.duration { number(duration) } else { output.append(contentsOf: "null".utf8) }
        key("status")
        JSONNode.writeString(fields.status.rawValue, to: &output)
        key("revealed")
        flag(fields.revealed)
        key("editing")
        flag(fields.editing)
        key("options")
        output.append(UInt8(ascii: "["))
        for (index, option) in fields.options.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "{"))
            key("key", first: true)
            JSONNode.writeString(option.key, to: &output)
            key("title")
            JSONNode.writeString(option.title, to: &output)
            key("destructive")
            flag(option.destructive)
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: "]"))
        output.append(UInt8(ascii: "}"))
    }
}
