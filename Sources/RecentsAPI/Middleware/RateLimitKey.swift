import Glibc

/// Whose bucket a request draws from: the list of its token, or the address it came from.
///
/// Hashed once when made, outside the limiter's lock (as `TokenKey` is), and compared by kind and
/// bytes: `String` equality would make canonically equivalent names share one bucket.
public struct RateLimitKey: Hashable, Sendable {
    private let kind: UInt8
    private let text: String
    private let hash: Int

    private init(kind: UInt8, text: String) {
        self.kind = kind
        self.text = text
        var hasher = Hasher()
        hasher.combine(kind)
        var bytes = text
        bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hash = hasher.finalize()
    }

    /// The bucket of a token's list (`sub`): every token of one list, on every device, shares it.
    public static func list(_ name: String) -> RateLimitKey { RateLimitKey(kind: 0, text: name) }

    /// The bucket of a client address without a valid token. An IPv6 address counts by its /64, the
    /// block one subscriber gets (RFC 6177), or a single host could take a fresh bucket per address.
    public static func address(_ address: String) -> RateLimitKey {
        guard address.utf8.contains(UInt8(ascii: ":")) else { return RateLimitKey(kind: 1, text: address) }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return RateLimitKey(kind: 1, text: address) }
        let prefix = bytes.prefix(8).map { String($0, radix: 16) }.joined(separator: ".")
        return RateLimitKey(kind: 2, text: prefix)
    }

    /// Which of `count` shards holds this key (`count` a power of two).
    public func shard(of count: Int) -> Int { Int(truncatingIfNeeded: UInt(bitPattern: hash) >> 7) & (count - 1) }

    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    public static func == (a: RateLimitKey, b: RateLimitKey) -> Bool {
        a.hash == b.hash && a.kind == b.kind && a.text.utf8.elementsEqual(b.text.utf8)
    }
}
