import Glibc

/// A numeric IP address as 128 bits, IPv4 held in its IPv4-mapped IPv6 form (`::ffff:a.b.c.d`,
/// RFC 4291 §2.5.5.2), so one comparison serves both families and a dual-stack listener's mapped
/// peers match IPv4 ranges.
public struct IPAddress: Hashable, Sendable {
    /// The first and last 64 bits of the address, in host order.
    let high: UInt64
    let low: UInt64

    /// `::ffff:0:0/96`, the block IPv4 addresses are mapped into, as the top half of `low`.
    private static let mappedPrefix: UInt64 = 0x0000_FFFF_0000_0000

    /// Whether this is an IPv4 address (held mapped).
    public var isIPv4: Bool { high == 0 && low & 0xFFFF_FFFF_0000_0000 == Self.mappedPrefix }

    /// Parses dotted IPv4 (`192.0.2.7`) or IPv6 text (`2001:db8::1`, `::ffff:192.0.2.7`); nil for
    /// anything else, ports, brackets, zone ids and surrounding spaces included.
    public init?<Text: StringProtocol>(_ text: Text) {
        // The longest IPv6 text (with an embedded IPv4 address) is 45 bytes.
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        if text.utf8.contains(UInt8(ascii: ":")) {
            var v6 = in6_addr()
            guard String(text).withCString({ inet_pton(AF_INET6, $0, &v6) }) == 1 else { return nil }
            let (high, low) = withUnsafeBytes(of: v6) { raw in
                (
                    raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                    raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                )
            }
            self.init(high: UInt64(bigEndian: high), low: UInt64(bigEndian: low))
        } else {
            var v4 = in_addr()
            guard String(text).withCString({ inet_pton(AF_INET, $0, &v4) }) == 1 else { return nil }
            self.init(high: 0, low: Self.mappedPrefix | UInt64(UInt32(bigEndian: v4.s_addr)))
        }
    }

    /// The address from its two halves (host order).
    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// This address with every bit after the first `bits` (0...128) cleared.
    func masked(to bits: Int) -> IPAddress {
        func mask(_ bits: Int) -> UInt64 { bits <= 0 ? 0 : bits >= 64 ? .max : ~(UInt64.max >> UInt64(bits)) }
        return IPAddress(high: high & mask(bits), low: low & mask(bits - 64))
    }

    /// The address as text: dotted for IPv4 (mapped ones too), else the RFC 5952 IPv6 form.
    public var text: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written: UnsafePointer<CChar>?
        if isIPv4 {
            var v4 = in_addr(s_addr: UInt32(truncatingIfNeeded: low).bigEndian)
            written = inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count))
        } else {
            var halves = (high.bigEndian, low.bigEndian)
            written = inet_ntop(AF_INET6, &halves, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
    }
}
