/// A request target split and percent-decoded (RFC 9112 §3.2, RFC 3986 §2.1), working on its
/// bytes: every separator is ASCII, and Character-wise `Substring` scanning was a fifth of the
/// server's time per request.
struct RequestTarget {
    /// The raw, undecoded path (for absolute-form targets, the path part only).
    var path: String
    /// The path split on `/`, each segment percent-decoded; `/` gives `[]`.
    var segments: [String]
    /// The query's `name=value` pairs, decoded (`+` is a space).
    var query: [(name: String, value: String)]
    /// An absolute-form target's authority (`http://host:80/p` → `host:80`); nil for other forms.
    var authority: String?

    /// Why a target does not decode.
    enum Failure: Error, Equatable {
        case path
        case query
    }

    /// Splits and decodes `target`.
    static func parse(_ target: UnsafeBufferPointer<UInt8>) -> Result<RequestTarget, Failure> {
        var rest = 0..<target.count
        var authority: Range<Int>?
        var implicitRoot = false
        if target.first != 0x2F, let afterScheme = schemeEnd(target) {
            // Absolute form: the path starts at the first '/' or '?' after the authority.
            let end = firstIndex(in: target, afterScheme..<target.count) { $0 == 0x2F || $0 == 0x3F } ?? target.count
            rest = end..<target.count
            implicitRoot = rest.isEmpty || target[end] == 0x3F
            let authorityEnd = firstIndex(in: target, afterScheme..<end) { $0 == 0x23 } ?? end
            authority = afterScheme..<authorityEnd
        }
        if let hash = firstIndex(in: target, rest, where: { $0 == 0x23 }) { rest = rest.lowerBound..<hash }
        var pathRange = rest
        var queryRange = rest.upperBound..<rest.upperBound
        if let mark = firstIndex(in: target, rest, where: { $0 == 0x3F }) {
            pathRange = rest.lowerBound..<mark
            queryRange = (mark + 1)..<rest.upperBound
        }
        let path =
            implicitRoot ? "/" : String(decoding: UnsafeBufferPointer(rebasing: target[pathRange]), as: UTF8.self)
        guard let segments = implicitRoot ? [] : decodeSegments(target, pathRange) else { return .failure(.path) }
        guard let query = decodeQuery(target, queryRange) else { return .failure(.query) }
        return .success(
            RequestTarget(
                path: path, segments: segments, query: query,
                authority: authority.map { String(decoding: UnsafeBufferPointer(rebasing: target[$0]), as: UTF8.self) })
        )
    }

    /// Splits and decodes `target`, a hand-built one (tests, internal dispatch) given as a string.
    static func parse(_ target: String) -> Result<RequestTarget, Failure> {
        var target = target
        return target.withUTF8 { parse($0) }
    }

    /// The index just past `://` when the target's first `:` starts one.
    private static func schemeEnd(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let colon = b.firstIndex(of: 0x3A), colon + 2 < b.count, b[colon + 1] == 0x2F, b[colon + 2] == 0x2F
        else { return nil }
        return colon + 3
    }

    private static func firstIndex(
        in b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, where matches: (UInt8) -> Bool
    ) -> Int? {
        var i = range.lowerBound
        while i < range.upperBound {
            if matches(b[i]) { return i }
            i += 1
        }
        return nil
    }

    /// Decodes each `/`-separated segment of `b[range]`; nil on a malformed escape or invalid UTF-8.
    private static func decodeSegments(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [String]? {
        if range.isEmpty || (range.count == 1 && b[range.lowerBound] == 0x2F) { return [] }
        var start = range.lowerBound
        // A leading '/' opens the first segment rather than ending an empty one.
        if b[start] == 0x2F { start += 1 }
        // Sized at once: appending grew the array two or three times per request (issue 42).
        var slashes = 0
        for i in start..<range.upperBound where b[i] == 0x2F { slashes += 1 }
        var out: [String] = []
        out.reserveCapacity(slashes + 1)
        var i = start
        while true {
            if i == range.upperBound || b[i] == 0x2F {
                guard let segment = percentDecode(b, start..<i, plusIsSpace: false) else { return nil }
                out.append(segment)
                if i == range.upperBound { return out }
                start = i + 1
            }
            i += 1
        }
    }

    /// Decodes the `a=b&c=d` pairs of `b[range]`, skipping empty ones; a name without `=` gets an
    /// empty value, and only the first `=` splits.
    private static func decodeQuery(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [(
        name: String, value: String
    )]? {
        var out: [(name: String, value: String)] = []
        var start = range.lowerBound
        var i = start
        while i <= range.upperBound {
            if i == range.upperBound || b[i] == 0x26 {
                if i > start {
                    let equals = firstIndex(in: b, start..<i) { $0 == 0x3D }
                    let nameEnd = equals ?? i
                    let valueStart = equals.map { $0 + 1 } ?? i
                    guard let name = percentDecode(b, start..<nameEnd, plusIsSpace: true),
                        let value = percentDecode(b, valueStart..<i, plusIsSpace: true)
                    else { return nil }
                    out.append((name: name, value: value))
                }
                start = i + 1
            }
            i += 1
        }
        return out
    }

    /// Percent-decodes `b[range]`; nil on a malformed escape or an invalid UTF-8 result.
    private static func percentDecode(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, plusIsSpace: Bool)
        -> String?
    {
        let raw = UnsafeBufferPointer(rebasing: b[range])
        if !raw.contains(where: { $0 == 0x25 || (plusIsSpace && $0 == 0x2B) }) {
            // Nothing to decode. A wire target is ASCII, and a slice of a string's UTF-8 cut at
            // ASCII separators is valid UTF-8, so this never repairs anything.
            return String(decoding: raw, as: UTF8.self)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let c = raw[i]
            if c == 0x25 {
                guard i + 2 < raw.count, let high = hexValue(raw[i + 1]), let low = hexValue(raw[i + 2]) else {
                    return nil
                }
                bytes.append(high << 4 | low)
                i += 3
            } else {
                bytes.append(c == 0x2B && plusIsSpace ? 0x20 : c)
                i += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The value of one hex digit, or nil.
    @inline(__always) static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}
