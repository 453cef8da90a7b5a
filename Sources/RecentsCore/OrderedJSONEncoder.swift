/// A compact JSON encoder that writes object members in the order `encode(to:)` encodes them.
///
/// Why: the contract fixes member order (`id`, `peer`, `count`, ...), but Foundation's
/// `JSONEncoder` on Linux emits members in hash order. Explicit `encodeNil` / `encode(nil)`
/// calls produce `null`; `encodeIfPresent` omits the member as usual. Non-finite numbers throw.
public struct OrderedJSONEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// The JSON text of `value`.
    public func encode(_ value: some Encodable) throws -> String {
        var output = ""
        try encodeNode(value).write(to: &output)
        return output
    }

    /// The UTF-8 bytes of the JSON text of `value`.
    public func encodeBytes(_ value: some Encodable) throws -> [UInt8] {
        Array(try encode(value).utf8)
    }

    func encodeNode(_ value: some Encodable) throws -> JSONNode {
        let root = JSONNode()
        try value.encode(to: NodeEncoder(node: root, codingPath: []))
        return root
    }
}

/// A JSON value under construction; containers hand out child nodes they fill later.
final class JSONNode {
    enum Value {
        case unset
        case null
        case literal(String)
        case string(String)
        case array([JSONNode])
        case object([(key: String, node: JSONNode)])
    }

    var value: Value = .unset

    init(_ value: Value = .unset) { self.value = value }

    func write(to output: inout String) throws {
        switch value {
        case .unset:
            output += "{}"
        case .null:
            output += "null"
        case .literal(let text):
            output += text
        case .string(let text):
            Self.writeString(text, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                try element.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(member.key, to: &output)
                output += ":"
                try member.node.write(to: &output)
            }
            output += "}"
        }
    }

    static func writeString(_ text: String, to output: inout String) {
        output += "\""
        var plainStart = text.unicodeScalars.startIndex
        var index = plainStart
        let scalars = text.unicodeScalars
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let escape: String?
            switch scalar {
            case "\"": escape = "\\\""
            case "\\": escape = "\\\\"
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            case "\u{08}": escape = "\\b"
            case "\u{0C}": escape = "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    escape = nil
                }
            }
            if let escape {
                output.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
                output += escape
                plainStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        output.unicodeScalars.append(contentsOf: scalars[plainStart..<scalars.endIndex])
        output += "\""
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
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.value {} else { node.value = .object([]) }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.value {} else { node.value = .array([]) }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueNodeContainer(node: node, codingPath: codingPath)
    }
}

/// Encodes one value into a fresh node, writing numbers, strings and booleans directly.
func encodeValue(_ value: some Encodable, codingPath: [any CodingKey]) throws -> JSONNode {
    switch value {
    case let text as String: return JSONNode(.string(text))
    case let flag as Bool: return JSONNode(.literal(flag ? "true" : "false"))
    case let number as Int: return JSONNode(.literal(String(number)))
    case let number as Int64: return JSONNode(.literal(String(number)))
    case let number as Double: return JSONNode(.literal(try JSONNode.literal(number, codingPath: codingPath)))
    case let number as any BinaryInteger: return JSONNode(.literal(String(number)))
    case let number as Float: return JSONNode(.literal(try JSONNode.literal(Double(number), codingPath: codingPath)))
    default:
        let node = JSONNode()
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
        return node
    }
}

struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let codingPath: [any CodingKey]

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
        set(try encodeValue(value, codingPath: codingPath + [key]), for: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = JSONNode(.object([]))
        set(child, for: key)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = JSONNode(.array([]))
        set(child, for: key)
        return UnkeyedNodeContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let child = JSONNode()
        set(child, named: "super")
        return NodeEncoder(node: child, codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = JSONNode()
        set(child, for: key)
        return NodeEncoder(node: child, codingPath: codingPath + [key])
    }
}

struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]

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
        append(try encodeValue(value, codingPath: codingPath + [indexKey]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let child = JSONNode(.object([]))
        let path = codingPath + [indexKey]
        append(child)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = JSONNode(.array([]))
        let path = codingPath + [indexKey]
        append(child)
        return UnkeyedNodeContainer(node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let child = JSONNode()
        let path = codingPath + [indexKey]
        append(child)
        return NodeEncoder(node: child, codingPath: path)
    }
}

struct SingleValueNodeContainer: SingleValueEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.value = .null }

    mutating func encode(_ value: some Encodable) throws {
        node.value = try encodeValue(value, codingPath: codingPath).value
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
