/// A content coding this server and its clients speak (RFC 9110 §8.4.1): the names that appear in
/// `Accept-Encoding` and `Content-Encoding`.
///
/// The API picks one per answer with `AcceptEncoding.preferred(among:)`, labels the answer with
/// `name`, and reads a request's `Content-Encoding` with `ContentEncodings(parsing:)`.
public enum ContentCoding: Sendable, Hashable, CaseIterable {
    /// No coding: the bytes as they are.
    case identity
    /// gzip (RFC 1952) over deflate, as zlib writes it.
    case gzip
    /// Brotli (RFC 7932).
    case br

    /// The name to send in `Content-Encoding` (lower case, the registered spelling).
    public var name: String {
        switch self {
        case .identity: "identity"
        case .gzip: "gzip"
        case .br: "br"
        }
    }

    /// The coding named `name`, compared case-insensitively, or nil for one we do not speak.
    ///
    /// `x-gzip` is gzip (RFC 9110 §8.4.1.3: a recipient should treat it as equivalent).
    public init?(_ name: some StringProtocol) {
        var text = String(name)
        guard let coding = text.withUTF8({ Self(token: $0) }) else { return nil }
        self = coding
    }

    /// The coding named by the ASCII bytes `token` (case-insensitive), or nil; allocates nothing,
    /// so header parsers can call it on a slice of the field.
    public init?(token: UnsafeBufferPointer<UInt8>) {
        if Self.matches(token, "br") {
            self = .br
        } else if Self.matches(token, "gzip") || Self.matches(token, "x-gzip") {
            self = .gzip
        } else if Self.matches(token, "identity") {
            self = .identity
        } else {
            return nil
        }
    }

    /// Whether `token` spells `lowercase` in any case (ASCII letters only differ by bit 0x20).
    static func matches(_ token: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard token.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        for index in 0..<token.count {
            let byte = token[index]
            let folded = (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
            if folded != expected[index] { return false }
        }
        return true
    }
}
