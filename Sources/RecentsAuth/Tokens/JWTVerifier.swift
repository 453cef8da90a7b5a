import Glibc
import RecentsCrypto
import SystemSupport

/// Verifies JSON Web Tokens (RFC 7519) in JWS compact form (RFC 7515 §7.1) and reads their
/// claims: HS256 tokens signed with the shared secret (issue 10), and RS256, PS256, ES256 and EdDSA
/// tokens of an identity provider whose public keys are in a JWKS (issue 25). A token's `alg`
/// picks the path; each path accepts only what it was configured for.
///
/// Checks run cheapest and least trusting first: size, shape, header (`alg`, `kid`), then the
/// signature, and only then is the payload decoded, so without a trusted key nobody gets further
/// than "bad signature". Time claims allow `clockSkewSeconds` either way: a token is accepted
/// while `now < exp + 60` and `now >= nbf - 60`, RFC 7519 §4.1.4/§4.1.5's comparisons widened by
/// the skew (as jose, PyJWT and jsonwebtoken do).
///
/// A token that passed is remembered (`TokenCache`, by its exact bytes): sent again, it skips
/// decoding and the signature, but its time claims are checked again on every use, and a
/// provider's token is honoured only while its key is still in the set.
public struct JWTVerifier: Sendable {
    /// Tokens longer than this are refused unread. HS256 tokens here are ~200 bytes, an RS256
    /// token of a 4096-bit key with a provider's claims ~1,200; the HTTP layer answers 431 for any
    /// head over 16 KiB before this is reached.
    public static let maximumTokenBytes = 4096
    /// Clock skew tolerated on `exp` and `nbf`, in seconds (issue 10).
    public static let clockSkewSeconds: Int64 = 60

    /// The HS256 secret; nil when only a provider's tokens are accepted.
    let secret: AuthSecret?
    /// The secret keyed into libcrypto once (a fifth of the cost of a one-shot HMAC per token);
    /// nil without a secret, or if libcrypto could not allocate it (the one-shot call stands in).
    let key: HMACSHA256Key?
    /// The identity provider whose public-key tokens are accepted; nil when none is configured.
    public let provider: IdentityProvider?
    private let clock: @Sendable () -> Int64
    /// The same clock in milliseconds, for when a live request must end: the wall clock's own
    /// milliseconds by default, an injected clock's seconds times 1,000.
    private let millisecondClock: @Sendable () -> Int64
    /// Tokens already verified by this verifier; nil when caching is off. It belongs to the
    /// verifier, and so to its secret and provider: another verifier starts with an empty one.
    let cache: TokenCache?

    /// How many verified tokens a verifier remembers by default: one per active client of a
    /// busy instance. A token is ~200 bytes to ~1.2 KB and at most `maximumTokenBytes`, so the
    /// cache holds a few MB in practice and under 17 MB at worst.
    public static let defaultCacheCapacity = TokenCache.defaultCapacity

    /// A verifier for HS256 tokens signed with `secret`, reading the time from `clock` (Unix
    /// seconds; the wall clock when nil), remembering up to `cacheCapacity` verified tokens (0
    /// turns the cache off).
    public init(
        secret: AuthSecret, clock: (@Sendable () -> Int64)? = nil,
        cacheCapacity: Int = JWTVerifier.defaultCacheCapacity
    ) {
        self.init(secret: secret, provider: nil, clock: clock, cacheCapacity: cacheCapacity)
    }

    /// A verifier for HS256 tokens signed with `secret` (when given) and for `provider`'s tokens
    /// (when given), reading the time from `clock` (the wall clock when nil), remembering up to
    /// `cacheCapacity` tokens.
    public init(
        secret: AuthSecret?, provider: IdentityProvider?, clock: (@Sendable () -> Int64)? = nil,
        cacheCapacity: Int = JWTVerifier.defaultCacheCapacity
    ) {
        self.secret = secret
        self.key = secret.flatMap { try? HMACSHA256Key($0.bytes) }
        self.provider = provider
        if let clock {
            self.clock = clock
            self.millisecondClock = { clock() * 1000 }
        } else {
            self.clock = Self.systemClock
            self.millisecondClock = Self.systemMillisecondClock
        }
        self.cache = cacheCapacity > 0 ? TokenCache(capacity: cacheCapacity) : nil
    }

    /// The wall clock in whole Unix seconds.
    public static let systemClock: @Sendable () -> Int64 = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }

    /// The wall clock in Unix milliseconds.
    static let systemMillisecondClock: @Sendable () -> Int64 = {
        let (seconds, milliseconds) = SystemClock.wallTime()
        return seconds * 1000 + Int64(milliseconds)
    }

    /// The current time by this verifier's clock.
    public var now: Int64 { clock() }

    /// The time from now, by this verifier's clock, until the Unix second `instant` (negative
    /// once past): how long a request a token allowed may stay open, to the millisecond.
    public func timeUntil(_ instant: Int64) -> Duration {
        .milliseconds(instant * 1000 - millisecondClock())
    }

    /// The claims of `token` if it verifies now.
    /// - Throws: `TokenError` saying which check refused it.
    public func verify(_ token: some StringProtocol) throws(TokenError) -> TokenClaims {
        try verify(token, now: clock())
    }

    /// The claims of `token` if it verifies at `now` (Unix seconds).
    /// - Throws: `TokenError` saying which check refused it.
    public func verify(_ token: some StringProtocol, now: Int64) throws(TokenError) -> TokenClaims {
        try verify(token, now: now, keeping: false).claims
    }

    /// The claims of `token` if it verifies at `now`, and, when `keeping`, what the caller may keep
    /// and hand back with its next token (`credential(field:remembered:)`): nil when caching is off.
    func verify(
        _ token: some StringProtocol, now: Int64, keeping: Bool
    ) throws(TokenError) -> (claims: TokenClaims, keep: RememberedToken?) {
        let utf8 = token.utf8
        guard utf8.count <= Self.maximumTokenBytes else { throw .tooLong }
        // Copied as one block where the text is contiguous (always, for a header value);
        // `Array(utf8)` alone would go through the generic iterator byte by byte.
        let bytes = utf8.withContiguousStorageIfAvailable { Array($0) } ?? Array(utf8)
        guard let cache else { return (try Self.checkTime(of: verifySignature(bytes).claims, now: now), nil) }
        if let cached = cache.entry(for: bytes), let entry = stillHonoured(cached, token: bytes, in: cache) {
            // An expired token can never be valid again: its slot goes to a live one.
            if now >= Self.expiryDeadline(of: entry.claims) { cache.remove(bytes) }
            let claims = try Self.checkTime(of: entry.claims, now: now)
            return (claims, keeping ? RememberedToken(bytes: bytes, entry: entry, cache: cache) : nil)
        }
        // Only a token that passes every check is remembered: a refusal is never cached.
        let entry = try verifySignature(bytes)
        let claims = try Self.checkTime(of: entry.claims, now: now)
        cache.store(entry, for: bytes)
        return (claims, keeping ? RememberedToken(bytes: bytes, entry: entry, cache: cache) : nil)
    }

    /// The claims of `remembered` if `token` is byte for byte its token and it still stands at
    /// `now`; nil when it is another token, another verifier's, past its expiry (the cache then
    /// forgets it) or of a key set that changed since.
    /// - Throws: `TokenError.notYetValid` for a clock now before its `nbf`.
    func kept(_ remembered: RememberedToken, for token: UnsafeBufferPointer<UInt8>, now: Int64) throws(TokenError)
        -> TokenClaims?
    {
        guard let cache, remembered.cache === cache, remembered.isToken(token),
            now < Self.expiryDeadline(of: remembered.entry.claims), isCurrent(remembered.entry)
        else { return nil }
        return try Self.checkTime(of: remembered.entry.claims, now: now)
    }

    /// Whether `entry`'s key is still the provider's current one (always, for HS256), checked
    /// without a lock; after a change to the key set a token goes through the cache again, which
    /// brings its entry up to date or forgets it.
    private func isCurrent(_ entry: CachedToken) -> Bool {
        guard let stamp = entry.key else { return true }
        return provider?.refreshed(stamp)?.generation == stamp.generation
    }

    /// `cached` if the key that verified it is still trusted (always, for HS256), brought up to the
    /// provider's current generation; nil after forgetting it when its key left the set or was
    /// replaced, so the token is verified again from scratch (and refused, unless its `kid` names a
    /// key that verifies it).
    private func stillHonoured(_ cached: CachedToken, token: [UInt8], in cache: TokenCache) -> CachedToken? {
        guard let stamp = cached.key else { return cached }
        guard let current = provider?.refreshed(stamp) else {
            cache.remove(token)
            return nil
        }
        guard current.generation != stamp.generation else { return cached }
        let refreshed = CachedToken(claims: cached.claims, key: current)
        cache.store(refreshed, for: token)
        return refreshed
    }

    /// `claims` if they are valid at `now` (with the skew): the check a cached token passes on every use.
    private static func checkTime(of claims: TokenClaims, now: Int64) throws(TokenError) -> TokenClaims {
        guard now < claims.expiresAt + clockSkewSeconds else { throw .expired }
        if let notBefore = claims.notBefore, now < notBefore - clockSkewSeconds { throw .notYetValid }
        return claims
    }

    /// The first Unix second at which a token with `claims` is refused (its `exp` plus the skew).
    /// A parked long-poll or an open stream ends earlier, at `exp` itself: the skew lets a token
    /// in whose issuer's clock runs behind, it does not lengthen what the token allows.
    public static func expiryDeadline(of claims: TokenClaims) -> Int64 {
        claims.expiresAt + clockSkewSeconds
    }
}
