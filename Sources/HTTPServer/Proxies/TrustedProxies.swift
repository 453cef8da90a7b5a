/// The address ranges of the proxies whose forwarding headers are believed (`--trusted-proxies`):
/// a request from any other peer names its client by the peer's own address, whatever it sends.
public struct TrustedProxies: Sendable, Equatable {
    /// One CIDR block: an address and how many leading bits of it count.
    struct Range: Sendable, Equatable {
        let network: IPAddress
        let bits: Int

        func contains(_ address: IPAddress) -> Bool { address.masked(to: bits) == network }

        /// `10.0.0.0/8`, `2001:db8::/32`.
        var text: String { "\(network.text)/\(network.isIPv4 ? bits - 96 : bits)" }
    }

    private(set) var ranges: [Range] = []

    /// No trusted proxy: every request's client is its peer.
    public init() {}

    /// Parses `CIDR[,CIDR…]` (`10.0.0.0/8`, `2001:db8::/32`, or a single address, which is a /32 or
    /// /128); spaces around entries and empty entries are ignored, so an empty text trusts nobody.
    /// A failure names the first entry that is not a block (a prefix longer than its family allows,
    /// host bits set past the prefix, anything that is not an address).
    public static func parse(_ text: String) -> Result<TrustedProxies, ParseError> {
        var proxies = TrustedProxies()
        for entry in text.split(separator: ",") {
            let trimmed = entry.trimmingSpaces
            if trimmed.isEmpty { continue }
            guard let range = Self.range(trimmed) else { return .failure(ParseError(entry: String(trimmed))) }
            proxies.ranges.append(range)
        }
        return .success(proxies)
    }

    /// Why `parse` refused a text: the entry that is not a CIDR block.
    public struct ParseError: Error, Equatable {
        /// The offending entry, as written.
        public let entry: String
    }

    /// The ranges as `parse` reads them (empty for none).
    public var text: String { ranges.map(\.text).joined(separator: ",") }

    /// Whether no proxy is trusted (the default).
    public var isEmpty: Bool { ranges.isEmpty }

    /// Whether `address` lies in a trusted range.
    public func contains(_ address: IPAddress) -> Bool { ranges.contains { $0.contains(address) } }

    /// Whether the numeric address `text` lies in a trusted range (false for anything unparsable).
    public func contains(text: String) -> Bool {
        guard !ranges.isEmpty, let address = IPAddress(text) else { return false }
        return contains(address)
    }

    /// The block `text` names, refusing host bits past the prefix (`10.0.0.1/8` is a typo for
    /// either `10.0.0.1` or `10.0.0.0/8`, and trusting the wider one by guess would be worse).
    private static func range(_ text: Substring) -> Range? {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let familyBits = address.isIPv4 ? 32 : 128
        var prefix = familyBits
        if parts.count == 2 {
            guard let number = Int(parts[1]), (0...familyBits).contains(number),
                parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            else { return nil }
            prefix = number
        }
        // An IPv4 block is a block of the mapped range: its 96 leading bits are fixed.
        let bits = address.isIPv4 ? 96 + prefix : prefix
        guard address.masked(to: bits) == address else { return nil }
        return Range(network: address, bits: bits)
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs (HTTP's OWS).
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
