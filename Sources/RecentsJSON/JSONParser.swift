/// Why a body is not JSON at all (the API answers 400 `invalid-json` with this detail).
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, with the byte offset where the parser stopped.
    public let description: String
}

/// A strict RFC 8259 parser over bytes: no NaN or Infinity, no trailing commas or garbage,
/// no lone surrogates, valid UTF-8 only, bounded nesting.
public struct JSONParser {
    /// Nesting deeper than this is refused, so a hostile body cannot exhaust the stack.
    public static let maximumDepth = 64
    /// Members of one object up to which a duplicate name is found by comparing names one by one.
    static let linearNameLimit = 16

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses one complete JSON document.
    /// - Throws: `JSONSyntaxError` when the bytes are empty, truncated, not UTF-8 or not JSON.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        if parser.index == bytes.count { throw JSONSyntaxError(description: "the body is empty") }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index != bytes.count { throw parser.error("unexpected data after the JSON value") }
        return value
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(description: "\(message) at byte \(index)")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of input") }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw error("invalid literal")
        }
        index += count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        var members: [(String, JSONValue)] = []
        if opensEmpty(closing: UInt8(ascii: "}")) { return .object(members) }
        // Names seen, hashed only once an object is large: a request body's objects hold a few
        // members, where a Set's allocations and hashing cost more than comparing each new name
        // with the earlier ones (perf: ~5% of an event loop's CPU per POST of one call).
        var names: Set<String>?
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a member name")
            }
            let name = try parseString()
            // RFC 8259 §4 leaves duplicate names to the implementation; refusing them means
            // no two readers of the same body can disagree about what it said.
            if members.count == Self.linearNameLimit { names = Set(members.lazy.map(\.0)) }
            let repeated =
                if let inserted = names?.insert(name).inserted { !inserted } else { members.contains { $0.0 == name } }
            if repeated { throw error("duplicate member \"\(name)\"") }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            members.append((name, try parseValue()))
        } while try !closes(UInt8(ascii: "}"), or: "expected ',' or '}'")
        return .object(members)
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        if opensEmpty(closing: UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            skipWhitespace()
            elements.append(try parseValue())
        } while try !closes(UInt8(ascii: "]"), or: "expected ',' or ']'")
        return .array(elements)
    }

    /// Steps past an object's or array's opening bracket; true, past `closing` too, when it is empty.
    private mutating func opensEmpty(closing: UInt8) -> Bool {
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == closing else { return false }
        index += 1
        return true
    }

    /// After a member or element: false past a `,` (another follows), true past `closing`.
    private mutating func closes(_ closing: UInt8, or message: String) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of input") }
        let byte = bytes[index]
        guard byte == UInt8(ascii: ",") || byte == closing else { throw error(message) }
        index += 1
        return byte == closing
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int64(text) {
            return .number(Double(value), integer: value)
        }
        guard let value = Double(text), value.isFinite else { throw error("number out of range") }
        // 1e3 and 10.0 are integral values written another way; fields that want an integer accept them.
        let integer: Int64? =
            (value.rounded() == value && abs(value) < 9.0e15) ? Int64(value) : nil
        return .number(value, integer: integer)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes; validate UTF-8 once when the closing quote is found.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = bytes[start..<index]
                index += 1
                return try decodeUTF8(slice)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in string") }
            index += 1
        }
        var scalars: [UInt8] = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try decodeUTF8(scalars[...])
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unexpected end of input") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw error("invalid escape")
                }
            default:
                if byte < 0x20 { throw error("control character in string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let high = try parseHex4()
        if (0xD800...0xDBFF).contains(high) {
            guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw error("lone surrogate in \\u escape") }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("lone surrogate in \\u escape") }
            let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw error("invalid \\u escape") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw error("lone surrogate in \\u escape") }
        return scalar
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of input") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func decodeUTF8(_ slice: ArraySlice<UInt8>) throws(JSONSyntaxError) -> String {
        // ASCII needs no validation; String(validating:as:) is generic over the encoding and looked
        // its metadata up on every call (perf: ~2% of an event loop's CPU per POST of one call).
        if slice.allSatisfy({ $0 < 0x80 }) { return String(decoding: slice, as: UTF8.self) }
        guard let string = String(validating: slice, as: UTF8.self) else { throw error("invalid UTF-8 in string") }
        return string
    }
}
