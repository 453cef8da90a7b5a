import Glibc
import Synchronization
import SystemSupport

/// Tokens that verified, by their exact bytes, with their claims: a client sends the same token
/// on every request, so after the first one a request pays a hash lookup instead of base64url
/// decoding, two JSON parses and an HMAC.
///
/// Only what the signature proved is cached (the claims, and for a public-key token the key that
/// verified it); the clock is not. `JWTVerifier` checks `exp` and `nbf` again on every hit, so a
/// cached token expires exactly when an uncached one would, and for a public-key token it checks
/// that its key is still in the provider's set, so a key removed by a rotation is no longer honoured
/// from here either. Only tokens that verified get in, so filling the cache takes tokens signed with
/// a trusted key; even so it holds at most `capacity` entries, the least recently used going first.
final class TokenCache: Sendable {
    /// The default bound, `JWTVerifier.defaultCacheCapacity`.
    static let defaultCapacity = 4096

    /// One lock around the table: a hit holds it for one dictionary lookup and a relink, and
    /// the hot read already takes two such locks (list heads, views). Per-loop tables would
    /// need the loop's identity threaded through the pipeline for no measured gain.
    private let table: Mutex<LRUTable<TokenKey, CachedToken>>

    /// An empty cache holding at most `capacity` tokens (0 caches nothing).
    init(capacity: Int) {
        table = Mutex(LRUTable(capacity: capacity))
    }

    /// What `token` verified with, marking it as just used; nil when it is not cached.
    func entry(for token: [UInt8]) -> CachedToken? {
        let key = TokenKey(bytes: token)
        return table.withLock { $0.value(for: key) }
    }

    /// Remembers that `token` verified as `entry` says.
    func store(_ entry: CachedToken, for token: [UInt8]) {
        let key = TokenKey(bytes: token)
        table.withLock { $0.set(entry, for: key, cost: 1) }
    }

    /// Forgets `token` (it expired, or its key left the set).
    func remove(_ token: [UInt8]) {
        let key = TokenKey(bytes: token)
        table.withLock { _ = $0.remove(key) }
    }

    /// Tokens held now, never above the capacity.
    var count: Int { table.withLock { $0.count } }
}

/// What a token verified with: its claims, and for a public-key token which key of which generation
/// of the provider's set (nil for HS256: the secret does not change while the server runs).
struct CachedToken: Sendable {
    var claims: TokenClaims
    var key: KeyStamp? = nil
}

/// A token's bytes as a dictionary key: equal only when byte for byte equal.
///
/// Not `String`: Swift compares strings by canonical equivalence, so `"\u{212A}"` (KELVIN SIGN)
/// equals `"K"`, and a different token would find a cached one's claims. The hash is only a
/// bucket choice (seeded per process by the standard library); a lookup always compares every byte.
struct TokenKey: Hashable, Sendable {
    /// How many trailing bytes the hash reads: the signature's base64url (43 bytes for HS256, more
    /// for the public-key algorithms) and a little more. Tokens of one issuer share their header
    /// and most of their payload, so the tail is what tells them apart, and only signed tokens are
    /// ever stored, so nobody without a trusted key can choose tails that crowd one bucket.
    static let hashedSuffix = 48

    let bytes: [UInt8]
    /// Hashed when the key is made, before the cache's lock is taken: hashing under the lock
    /// made both event loops wait on it (perf showed `Mutex` slow-path locking and context
    /// switches that `--auth none` did not have).
    private let tailHash: Int

    init(bytes: [UInt8]) {
        self.bytes = bytes
        var hasher = Hasher()
        hasher.combine(bytes.count)
        // One call over the buffer instead of one per byte, as `Array`'s own hash would make.
        bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0.suffix(Self.hashedSuffix))) }
        tailHash = hasher.finalize()
    }

    func hash(into hasher: inout Hasher) { hasher.combine(tailHash) }

    static func == (a: TokenKey, b: TokenKey) -> Bool {
        guard a.tailHash == b.tailHash, a.bytes.count == b.bytes.count else { return false }
        return a.bytes.withUnsafeBytes { x in
            b.bytes.withUnsafeBytes { y in
                // Equal counts: both empty, or both buffers have an address.
                guard let p = x.baseAddress, let q = y.baseAddress else { return true }
                return memcmp(p, q, x.count) == 0
            }
        }
    }
}
