/// A request's header fields as they arrived: one copy of the field lines' bytes, and where each
/// field's name and (trimmed) value lie in it.
///
/// Why not strings: a browser's request carries a dozen fields (User-Agent, Accept-Language,
/// Sec-Fetch-*, Cookie, …) that the server never reads, and making two `String`s of each cost
/// ~1 µs a request; a value becomes a `String` only when something asks for it. The parser has
/// already checked every byte (token names, no control characters, valid UTF-8), so decoding later
/// gives the same strings.
struct ReceivedFields: Sendable {
    /// Where one field's name and value lie in `bytes`.
    struct Span: Sendable {
        var name: Range<Int>
        var value: Range<Int>
    }

    let bytes: [UInt8]
    let spans: [Span]

    /// The name of field `index`, as sent.
    func name(_ index: Int) -> String { String(decoding: bytes[spans[index].name], as: UTF8.self) }

    /// The value of field `index`.
    func value(_ index: Int) -> String { String(decoding: bytes[spans[index].value], as: UTF8.self) }

    /// Whether field `index` is named `name`, ASCII case-insensitively (RFC 9110 §5.1).
    func isNamed(_ index: Int, _ name: String) -> Bool {
        let range = spans[index].name
        guard range.count == name.utf8.count else { return false }
        return name.withUTF8Bytes { wanted in
            bytes.withUnsafeBufferPointer {
                HTTPHeaders.equalsIgnoringCase(UnsafeBufferPointer(rebasing: $0[range]), wanted)
            }
        }
    }

    /// Every field as a (name, value) pair of strings, in order.
    func strings() -> [(name: String, value: String)] { spans.indices.map { (name: name($0), value: value($0)) } }
}
