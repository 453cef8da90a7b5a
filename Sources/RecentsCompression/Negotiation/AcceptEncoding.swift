/// A request's `Accept-Encoding` (RFC 9110 §12.5.3), reduced to what this server can send: the
/// weight the client gave `br`, `gzip`, `identity` and `*`.
///
/// Parsed once per request straight from the field's bytes, with no allocation; the API then asks
/// `preferred(among:)` with the codings it has for the answer (e.g. `[.br, .gzip, .identity]` for
/// a cached view with both copies), labels the answer with the result's `name`, adds
/// `Vary: Accept-Encoding`, and answers 406 only if the result is nil (identity refused).
///
/// Rules: no field means identity (RFC 9110 lets us send any coding then, but we compress only for
/// clients that ask). A weight of 0 refuses a coding; an element whose weight is not a valid
/// qvalue is ignored as a whole; unknown codings (`deflate`, `zstd`) are ignored; `x-gzip` is gzip;
/// `*` stands for every coding not named; when a coding is named twice the first mention counts.
/// `identity` is acceptable unless `identity;q=0`, or `*;q=0` without an `identity` element,
/// refuses it; when not named at all it ranks below every coding the client did name.
public struct AcceptEncoding: Sendable, Equatable {
    // Weights in thousandths (qvalue 0.001 → 1, 1 → 1000); nil where not named.
    private var br: Int16?
    private var gzip: Int16?
    private var identity: Int16?
    private var wildcard: Int16?
    /// Whether the request had the field at all.
    public let isPresent: Bool

    /// The answer to a request with no `Accept-Encoding`: identity only.
    public static let absent = AcceptEncoding(field: nil)

    /// The field's value as received (repeated fields joined with `,`), or nil when absent.
    public init(field: String?) {
        isPresent = field != nil
        guard var text = field else { return }
        text.withUTF8 { parse($0) }
    }

    /// The field's value as raw bytes (a server's view of its header).
    public init(bytes: UnsafeBufferPointer<UInt8>) {
        isPresent = true
        parse(bytes)
    }

    /// The client's weight for `coding` in thousandths (1...1000), 0 for an `identity` it did not
    /// name (acceptable, below everything named), or nil when it is not acceptable.
    public func weight(of coding: ContentCoding) -> Int? {
        let named: Int16?
        switch coding {
        case .br: named = br ?? wildcard
        case .gzip: named = gzip ?? wildcard
        case .identity:
            guard isPresent else { return 1000 }
            guard let explicit = identity ?? wildcard else { return 0 }
            return explicit > 0 ? Int(explicit) : nil
        }
        guard isPresent, let named, named > 0 else { return nil }
        return Int(named)
    }

    /// The coding to answer with among those the server has: the highest weight, ties broken
    /// br > gzip > identity; nil when none is acceptable (answer 406, or identity anyway).
    public func preferred(among available: [ContentCoding]) -> ContentCoding? {
        var best: ContentCoding?
        var bestWeight = -1
        for coding in available {
            guard let weight = weight(of: coding) else { continue }
            if weight > bestWeight || (weight == bestWeight && Self.rank(coding) > Self.rank(best)) {
                best = coding
                bestWeight = weight
            }
        }
        return best
    }

    /// The tie-break order: smaller output first.
    private static func rank(_ coding: ContentCoding?) -> Int {
        switch coding {
        case .br: 3
        case .gzip: 2
        case .identity: 1
        case nil: 0
        }
    }

    // MARK: - Parsing

    /// `#( codings [ weight ] )`, element by element; whitespace per RFC 9110 §5.6.3.
    private mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) {
        for element in Self.parts(of: bytes[...], separatedBy: UInt8(ascii: ",")) { self.element(element) }
    }

    /// One element: a coding name, then `;`-separated parameters of which only `q` matters.
    private mutating func element(_ bytes: Bytes) {
        var parts = Self.parts(of: bytes, separatedBy: UInt8(ascii: ";"))
        guard let first = parts.next() else { return }
        let name = Self.trimmed(first)
        guard !name.isEmpty else { return }
        var weight: Int16 = 1000
        while let parameter = parts.next() {
            let text = Self.trimmed(parameter)
            guard let letter = text.first, letter | 0x20 == UInt8(ascii: "q") else { continue }
            let equals = Self.trimmed(text.dropFirst())
            guard equals.first == UInt8(ascii: "=") else { continue }
            // `q` without a valid qvalue: the whole element is ignored rather than guessed at.
            guard let q = Self.qvalue(Self.trimmed(equals.dropFirst())) else { return }
            weight = q
        }
        if name.count == 1 && name.first == UInt8(ascii: "*") {
            if wildcard == nil { wildcard = weight }
            return
        }
        switch ContentCoding(token: UnsafeBufferPointer(rebasing: name)) {
        case .br: if br == nil { br = weight }
        case .gzip: if gzip == nil { gzip = weight }
        case .identity: if identity == nil { identity = weight }
        case nil: break
        }
    }

    typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    /// The pieces of `bytes` between `separator`s, without allocating.
    static func parts(of bytes: Bytes, separatedBy separator: UInt8) -> FieldPieces {
        FieldPieces(bytes: bytes, separator: separator)
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` in thousandths, or nil.
    static func qvalue(_ text: Bytes) -> Int16? {
        guard let lead = text.first, lead == UInt8(ascii: "0") || lead == UInt8(ascii: "1") else { return nil }
        var value = lead == UInt8(ascii: "1") ? 1000 : 0
        let rest = text.dropFirst()
        guard !rest.isEmpty else { return Int16(value) }
        guard rest.first == UInt8(ascii: "."), rest.count <= 4 else { return nil }
        var scale = 100
        for digit in rest.dropFirst() {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            guard lead == UInt8(ascii: "0") || digit == UInt8(ascii: "0") else { return nil }
            value += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return Int16(value)
    }

    /// Without optional whitespace (spaces and tabs) at either end.
    static func trimmed(_ text: Bytes) -> Bytes {
        var lower = text.startIndex
        var upper = text.endIndex
        while lower < upper && (text[lower] == 0x20 || text[lower] == 0x09) { lower += 1 }
        while upper > lower && (text[upper - 1] == 0x20 || text[upper - 1] == 0x09) { upper -= 1 }
        return text[lower..<upper]
    }
}

/// The pieces of a header field's bytes between separators (`,` or `;`), empty ones included;
/// a value type over the caller's buffer, so splitting a field allocates nothing.
struct FieldPieces: IteratorProtocol, Sequence {
    /// The field (or element) being split.
    let bytes: AcceptEncoding.Bytes
    /// `,` between elements, `;` between an element's parameters.
    let separator: UInt8
    private var start: Int
    private var done = false

    /// The pieces of `bytes` between `separator`s.
    init(bytes: AcceptEncoding.Bytes, separator: UInt8) {
        self.bytes = bytes
        self.separator = separator
        start = bytes.startIndex
    }

    /// The next piece (possibly empty), or nil after the last.
    mutating func next() -> AcceptEncoding.Bytes? {
        guard !done else { return nil }
        let end = bytes[start...].firstIndex(of: separator) ?? bytes.endIndex
        let piece = bytes[start..<end]
        if end == bytes.endIndex { done = true } else { start = end + 1 }
        return piece
    }
}
