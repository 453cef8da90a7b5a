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

/// An array parameter (`text[]`, `bigint[]`, `boolean[]`, … by the statement's cast) as
/// PostgreSQL's array literal, encoded when it is made: every element quoted, with `"` and `\`
/// escaped, so no element can change the array's shape; a nil element is an unquoted NULL.
///
/// A type of its own, not a conformance of `Array`: a statement holds its values as
/// `any PGValue`, and an array's encoding reached through that existential ran as unspecialized
/// generic code, looking up type metadata at every step (perf of the PostgreSQL writer thread:
/// 16% of it was that getter). Made where the element type is known, the encoding is specialized.
/// It is built byte by byte, since escaping by `Character` (grapheme breaking) and joining a
/// `String` per element cost the writer a quarter of its time; both escaped bytes are ASCII, so
/// they never occur inside a multi-byte UTF-8 sequence, and the text stays valid UTF-8.
struct PGArray: PGValue {
    let pgText: String?

    /// The literal of `elements`, in order.
    init<Elements: Sequence>(_ elements: Elements) where Elements.Element: PGValue {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(2 + elements.underestimatedCount * 16)
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for element in elements {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
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
        pgText = String(decoding: bytes, as: UTF8.self)
    }
}
