/// A request's `Content-Encoding` (RFC 9110 §8.4): the codings applied to its body, in the order
/// they were applied, and the decoding of such a body under a size cap.
///
/// The API parses the field before reading the body: an unknown coding is 415 (with
/// `Accept-Encoding` naming `ContentEncodings.accepted`); then `decode(_:limit:)` with the body
/// limit turns the received bytes into the content (413 on `.tooLarge`, 400 otherwise).
public struct ContentEncodings: Sendable, Equatable {
    /// The most codings decoded on one body; each is a pass over up to the limit's bytes.
    public static let maxStacked = 2
    /// What a request body may be coded with, for a 415's `Accept-Encoding` field.
    public static let accepted = "gzip, br"

    /// The codings in the order the sender applied them (`gzip, br`: gzip first, then br);
    /// `identity` entries are left out, since they change nothing.
    public var codings: [ContentCoding]

    /// Codings in the order applied.
    public init(_ codings: [ContentCoding]) {
        self.codings = codings.filter { $0 != .identity }
    }

    /// The codings the field names; nil (no field) or an empty list is no coding.
    /// - Throws: `ContentEncodingError.unsupported` naming the first coding we do not speak, or
    ///   `.tooManyCodings` for a stack deeper than `maxStacked`.
    public init(parsing field: String?) throws(ContentEncodingError) {
        var codings: [ContentCoding] = []
        // A list: elements separated by commas, optional whitespace, empty elements allowed (RFC 9110 §5.6.1).
        for element in (field ?? "").split(separator: ",") {
            let name = element.trimmingWhitespace
            guard !name.isEmpty else { continue }
            guard let coding = ContentCoding(name) else { throw .unsupported(String(name)) }
            if coding != .identity { codings.append(coding) }
        }
        guard codings.count <= Self.maxStacked else { throw .tooManyCodings(codings.count) }
        self.codings = codings
    }

    /// Whether the body is sent as it is.
    public var isIdentity: Bool { codings.isEmpty }

    /// The content of a body coded this way, at most `limit` bytes; stacked codings are undone
    /// last-applied first (RFC 9110 §8.4), each stage capped at `limit`.
    /// - Throws: `DecompressionError`: `.tooLarge` as soon as a stage would pass `limit`.
    public func decode(_ body: [UInt8], limit: Int) throws(DecompressionError) -> [UInt8] {
        guard !codings.isEmpty else { return try ContentCoding.identity.decode(body, limit: limit) }
        var content = body
        for coding in codings.reversed() { content = try coding.decode(content, limit: limit) }
        return content
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingWhitespace: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[start...end]
    }
}
