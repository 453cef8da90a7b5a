/// A value bound to a statement parameter, sent in PostgreSQL's text format.
protocol PGValue {
    /// The parameter's text, nil for SQL NULL.
    var pgText: String? { get }
}

extension String: PGValue {
    var pgText: String? { self }
}

extension Int64: PGValue {
    var pgText: String? { String(self) }
}

extension Int: PGValue {
    var pgText: String? { String(self) }
}

extension Bool: PGValue {
    var pgText: String? { self ? "t" : "f" }
}

extension Optional: PGValue where Wrapped: PGValue {
    var pgText: String? { self?.pgText }
}

extension Array: PGValue where Element: PGValue {
    /// An array literal (`text[]`, `bigint[]`, `boolean[]`, … by the statement's cast): every
    /// element quoted, with `"` and `\` escaped, so no element can change the array's shape; a nil
    /// element is an unquoted NULL.
    ///
    /// Built byte by byte: a batch's INSERT binds eleven of these, and escaping by `Character`
    /// (grapheme breaking) and joining a `String` per element cost the writer thread a quarter
    /// of its time. Both escaped bytes are ASCII, so they never occur inside a multi-byte UTF-8
    /// sequence, and copying every other byte keeps the text valid UTF-8.
    var pgText: String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(2 + count * 16)
        bytes.append(UInt8(ascii: "{"))
        for (position, element) in enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            guard let text = element.pgText else {
                bytes.append(contentsOf: "NULL".utf8)
                continue
            }
            bytes.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
