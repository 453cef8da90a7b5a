import SystemSupport

/// Appends JSON to a byte buffer without Foundation: the API's answers are built here,
/// because JSONEncoder on Linux is several times slower and the hot reads are encodings.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// A writer with room for `capacity` bytes before it grows.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Makes room for `count` more bytes, so a large answer grows its buffer once.
    public mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(bytes.count + count)
    }

    /// Appends raw, already-valid JSON (or punctuation).
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends bytes that are already valid JSON.
    public mutating func raw(bytes other: [UInt8]) {
        bytes.append(contentsOf: other)
    }

    /// Appends `"name":`.
    public mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends a quoted, escaped string (RFC 8259 §7): the server's one JSON string escaper.
    ///
    /// `"` and `\` get a backslash, LF, CR and tab their short escapes, other control characters
    /// `\u00XX` (backspace and form feed included); everything else is copied as UTF-8.
    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for position in 0..<utf8.count {
                let byte = utf8[position]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                runStart = position + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [
                        0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                    ])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a string, or `null` when nil.
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { raw("null") }
    }

    /// Appends an integer.
    public mutating func int<I: BinaryInteger>(_ value: I) {
        appendDecimal(value, to: &bytes)
    }

    /// Appends an integer, or `null` when nil.
    public mutating func int<I: BinaryInteger>(_ value: I?) {
        if let value { int(value) } else { raw("null") }
    }

    /// Appends a finite double (integral values without a fraction, e.g. `-74`).
    public mutating func double(_ value: Double) {
        if value.rounded() == value, abs(value) < 1e15 {
            int(Int64(value))
        } else if value.isFinite {
            bytes.append(contentsOf: Array("\(value)".utf8))
        } else {
            raw("null")
        }
    }

    /// Appends `true` or `false`.
    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Appends `,` between members or elements.
    public mutating func comma() { bytes.append(UInt8(ascii: ",")) }

    /// Removes a `,` that ends what was written: the one `comma()` put before members that then
    /// wrote nothing (a complete JSON value never ends in one).
    public mutating func removeTrailingComma() {
        if bytes.last == UInt8(ascii: ",") { bytes.removeLast() }
    }

    /// Appends `[...]`: `element` writes each of `elements`, and commas go between them.
    public mutating func array<Elements: Sequence>(
        _ elements: Elements, _ element: (inout JSONWriter, Elements.Element) -> Void
    ) {
        raw("[")
        var first = true
        for item in elements {
            if !first { comma() }
            first = false
            element(&self, item)
        }
        raw("]")
    }
}
