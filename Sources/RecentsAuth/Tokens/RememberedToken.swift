import Glibc

/// A token a verifier accepted, kept by whoever will probably be handed it again, such as one
/// connection whose client sends the same token on every request: handed back with that token,
/// it lets the verifier skip the shared `TokenCache` (its hash, its lock, which every event loop
/// takes, and its copy of the token) while every other check still runs.
///
/// It proves no more than a cache entry does: the verifier that made it takes it back only from
/// its own cache's hands, only for the same bytes, and checks the time claims and, for a
/// provider's token, its key's generation again on every use.
public final class RememberedToken: Sendable {
    /// The token's bytes: at most `JWTVerifier.maximumTokenBytes`, one token per connection.
    let bytes: [UInt8]
    let entry: CachedToken
    /// The cache of the verifier that accepted it: no other verifier (another secret, another
    /// provider) takes it back.
    let cache: TokenCache

    init(bytes: [UInt8], entry: CachedToken, cache: TokenCache) {
        self.bytes = bytes
        self.entry = entry
        self.cache = cache
    }

    /// Whether `token` is byte for byte the token kept.
    func isToken(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
        guard token.count == bytes.count else { return false }
        return bytes.withUnsafeBytes { kept in
            guard let p = kept.baseAddress, let q = token.baseAddress else { return true }
            return memcmp(p, q, token.count) == 0
        }
    }
}
