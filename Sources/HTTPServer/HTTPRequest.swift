/// A fully received HTTP/1.x request.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The request target exactly as sent (origin-form or absolute-form).
    public var target: String
    /// The raw, undecoded path (for absolute-form targets, the path part only).
    public var path: String
    /// The path split on `/` with each segment percent-decoded; `/` gives `[]`.
    public var pathSegments: [String]
    /// Decoded query parameters in order (`+` decodes to a space).
    public var query: [(name: String, value: String)]
    /// The header fields.
    public var headers: HTTPHeaders
    /// The authority the request is for (RFC 9112 §3.2.2): an absolute-form target's, which wins
    /// over the `Host` field, else the field's value; empty when neither names one.
    public var host: String
    /// The decoded body (chunked framing removed).
    public var body: [UInt8]
    /// The minor version of HTTP/1.x.
    public var versionMinor: Int
    /// The echoed or generated request id.
    public var requestId: String
    /// Decoded `{name}` segments captured by the router.
    public var pathParameters: [String: String]
    /// The route pattern that matched, set by the router.
    public var routePattern: String?
    /// Monotonic instant at which the request's bytes were read.
    public var receivedAt: ContinuousClock.Instant

    /// Builds a request by hand (tests, internal dispatch); parses `target` into path and query.
    public init(
        method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        versionMinor: Int = 1, requestId: String = "", receivedAt: ContinuousClock.Instant = .now
    ) {
        self.method = method
        self.target = target
        let parts = RequestTarget.split(target)
        self.path = String(parts.path)
        self.pathSegments = RequestTarget.decodeSegments(parts.path) ?? []
        self.query = RequestTarget.decodeQuery(parts.query) ?? []
        self.headers = headers
        self.host = RequestTarget.authority(target) ?? headers["Host"] ?? ""
        self.body = body
        self.versionMinor = versionMinor
        self.requestId = requestId
        self.pathParameters = [:]
        self.routePattern = nil
        self.receivedAt = receivedAt
    }

    /// Builds a parsed request without re-splitting the target.
    init(
        method: HTTPMethod, target: String, path: String, segments: [String],
        query: [(name: String, value: String)], headers: HTTPHeaders, versionMinor: Int, host: String
    ) {
        self.host = host
        self.method = method
        self.target = target
        self.path = path
        self.pathSegments = segments
        self.query = query
        self.headers = headers
        self.body = []
        self.versionMinor = versionMinor
        self.requestId = ""
        self.pathParameters = [:]
        self.routePattern = nil
        self.receivedAt = .now
    }

    /// The first value of query parameter `name`, or nil.
    public func queryValue(_ name: String) -> String? {
        for item in query where item.name == name { return item.value }
        return nil
    }
}

/// Splitting and percent-decoding of request targets (RFC 9112 §3.2, RFC 3986 §2.1).
enum RequestTarget {
    /// Splits a target into raw path and raw query; absolute-form (`http://host/p?q`) keeps only `/p`.
    static func split(_ target: String) -> (path: Substring, query: Substring) {
        var rest = Substring(target)
        if !rest.hasPrefix("/"), let scheme = schemeEnd(rest) {
            let afterAuthority = rest[scheme...]
            if let slash = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                rest = afterAuthority[slash...]
            } else {
                rest = "/"
            }
            if rest.hasPrefix("?") { rest = "/" + rest }
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        if let q = rest.firstIndex(of: "?") {
            return (rest[..<q], rest[rest.index(after: q)...])
        }
        return (rest, "")
    }

    /// The authority of an absolute-form target (`http://host:80/p` → `host:80`), nil for other forms.
    static func authority(_ target: String) -> String? {
        let text = Substring(target)
        guard !text.hasPrefix("/"), let start = schemeEnd(text) else { return nil }
        let rest = text[start...]
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        return String(rest[..<end])
    }

    /// The index just past `://`, if the target has one.
    static func schemeEnd(_ s: Substring) -> Substring.Index? {
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == ":" {
                let rest = s[i...]
                if rest.hasPrefix("://") { return s.index(i, offsetBy: 3) }
                return nil
            }
            i = s.index(after: i)
        }
        return nil
    }

    /// Decodes each `/`-separated segment; nil when an escape is malformed or decodes to invalid UTF-8.
    static func decodeSegments(_ path: Substring) -> [String]? {
        if path.isEmpty || path == "/" { return [] }
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.first == "" { parts.removeFirst() }
        var out: [String] = []
        out.reserveCapacity(parts.count)
        for part in parts {
            guard let decoded = percentDecode(part, plusIsSpace: false) else { return nil }
            out.append(decoded)
        }
        return out
    }

    /// Decodes `a=b&c=d` pairs; a name without `=` gets an empty value.
    static func decodeQuery(_ query: Substring) -> [(name: String, value: String)]? {
        if query.isEmpty { return [] }
        var out: [(name: String, value: String)] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let eq = pair.firstIndex(of: "=") {
                name = pair[..<eq]
                value = pair[pair.index(after: eq)...]
            } else {
                name = pair
                value = ""
            }
            guard let n = percentDecode(name, plusIsSpace: true), let v = percentDecode(value, plusIsSpace: true)
            else { return nil }
            out.append((name: n, value: v))
        }
        return out
    }

    /// Percent-decodes `s`; nil on a malformed escape or invalid UTF-8 result.
    static func percentDecode(_ s: Substring, plusIsSpace: Bool) -> String? {
        let utf8 = s.utf8
        if !utf8.contains(where: { $0 == 0x25 || (plusIsSpace && $0 == 0x2B) }) { return String(s) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var it = utf8.makeIterator()
        while let c = it.next() {
            if c == 0x25 {
                guard let h = it.next(), let l = it.next(), let hv = hexValue(h), let lv = hexValue(l) else {
                    return nil
                }
                bytes.append(hv << 4 | lv)
            } else if c == 0x2B && plusIsSpace {
                bytes.append(0x20)
            } else {
                bytes.append(c)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    @inline(__always) static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}
