import Glibc
import RecentsCrypto
import RecentsJSON

/// Verifies HS256 JSON Web Tokens (RFC 7519) in JWS compact form (RFC 7515 §7.1) and reads
/// their claims.
///
/// Checks run cheapest and least trusting first: size, shape, header (`alg` exactly `HS256`),
/// then the signature, and only then is the payload decoded, so without the secret nobody
/// gets further than "bad signature". Time claims allow `clockSkewSeconds` either way: a token
/// is accepted while `now < exp + 60` and `now >= nbf - 60`, RFC 7519 §4.1.4/§4.1.5's
/// comparisons widened by the skew (as jose, PyJWT and jsonwebtoken do).
///
/// A token that passed is remembered (`TokenCache`, by its exact bytes): sent again, it skips
/// decoding and the HMAC, but its time claims are checked again on every use.
public struct JWTVerifier: Sendable {
    /// Tokens longer than this are refused unread. This service's tokens are ~200 bytes;
    /// the HTTP layer answers 431 for any head over 16 KiB before this is reached.
    public static let maximumTokenBytes = 4096
    /// Clock skew tolerated on `exp` and `nbf`, in seconds (issue 10).
    public static let clockSkewSeconds: Int64 = 60

    private let secret: AuthSecret
    /// The secret keyed into libcrypto once (a fifth of the cost of a one-shot HMAC per token);
    /// nil only if libcrypto could not allocate it, and then the one-shot call stands in.
    private let key: HMACSHA256Key?
    private let clock: @Sendable () -> Int64
    /// Tokens already verified with this secret; nil when caching is off. It belongs to the
    /// verifier, and so to its secret: a verifier for another secret starts with an empty one.
    let cache: TokenCache?

    /// How many verified tokens a verifier remembers by default: one per active client of a
    /// busy instance. A token is ~200 bytes and at most `maximumTokenBytes`, so the cache
    /// holds under 1 MB in practice and under 17 MB at worst.
    public static let defaultCacheCapacity = TokenCache.defaultCapacity

    /// A verifier for tokens signed with `secret`, reading the time from `clock` (Unix seconds),
    /// remembering up to `cacheCapacity` verified tokens (0 turns the cache off).
    public init(
        secret: AuthSecret, clock: @escaping @Sendable () -> Int64 = JWTVerifier.systemClock,
        cacheCapacity: Int = JWTVerifier.defaultCacheCapacity
    ) {
        self.secret = secret
        self.key = try? HMACSHA256Key(secret.bytes)
        self.clock = clock
        self.cache = cacheCapacity > 0 ? TokenCache(capacity: cacheCapacity) : nil
    }

    /// The wall clock in whole Unix seconds.
    public static let systemClock: @Sendable () -> Int64 = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }

    /// The current time by this verifier's clock.
    public var now: Int64 { clock() }

    /// The claims of `token` if it verifies now.
    /// - Throws: `TokenError` saying which check refused it.
    public func verify(_ token: some StringProtocol) throws(TokenError) -> TokenClaims {
        try verify(token, now: clock())
    }

    /// The claims of `token` if it verifies at `now` (Unix seconds).
    /// - Throws: `TokenError` saying which check refused it.
    public func verify(_ token: some StringProtocol, now: Int64) throws(TokenError) -> TokenClaims {
        let utf8 = token.utf8
        guard utf8.count <= Self.maximumTokenBytes else { throw .tooLong }
        // Copied as one block where the text is contiguous (always, for a header value);
        // `Array(utf8)` alone would go through the generic iterator byte by byte.
        let bytes = utf8.withContiguousStorageIfAvailable { Array($0) } ?? Array(utf8)
        guard let cache else { return try Self.checkTime(of: verifySignature(bytes), now: now) }
        if let claims = cache.claims(for: bytes) {
            // An expired token can never be valid again: its slot goes to a live one.
            if now >= Self.expiryDeadline(of: claims) { cache.remove(bytes) }
            return try Self.checkTime(of: claims, now: now)
        }
        // Only a token that passes every check is remembered: a refusal is never cached.
        let claims = try Self.checkTime(of: verifySignature(bytes), now: now)
        cache.store(claims, for: bytes)
        return claims
    }

    /// The claims of `bytes` if it is a well-formed HS256 token with a good signature; the
    /// time claims are read but not checked.
    private func verifySignature(_ bytes: [UInt8]) throws(TokenError) -> TokenClaims {
        let dot = UInt8(ascii: ".")
        guard let firstDot = bytes.firstIndex(of: dot),
            let secondDot = bytes[(firstDot + 1)...].firstIndex(of: dot),
            !bytes[(secondDot + 1)...].contains(dot),
            firstDot > 0, secondDot > firstDot + 1, secondDot < bytes.count - 1
        else { throw .malformed }

        let headerSegment = bytes[..<firstDot]
        if !Self.commonHeaders.contains(where: { $0.elementsEqual(headerSegment) }) {
            try Self.checkHeader(Self.object(headerSegment, .header))
        }

        guard let signature = Base64URL.decode(bytes[(secondDot + 1)...]) else {
            throw .invalidEncoding(.signature)
        }
        // The signing input is the ASCII of `header.payload` exactly as sent (RFC 7515 §5.2).
        let signingInput = bytes[..<secondDot]
        let verified =
            key?.isValid(signature, for: signingInput)
            ?? HMACSHA256.isValid(signature, key: secret.bytes, message: signingInput)
        guard verified else { throw .badSignature }

        return try TokenClaims.read(from: Self.object(bytes[(firstDot + 1)..<secondDot], .payload))
    }

    /// `claims` if they are valid at `now` (with the skew): the check a cached token passes on every use.
    private static func checkTime(of claims: TokenClaims, now: Int64) throws(TokenError) -> TokenClaims {
        guard now < claims.expiresAt + clockSkewSeconds else { throw .expired }
        if let notBefore = claims.notBefore, now < notBefore - clockSkewSeconds { throw .notYetValid }
        return claims
    }

    /// The first Unix second at which a token with `claims` is refused: a parked long-poll or
    /// an open stream authorised by it must end by then.
    public static func expiryDeadline(of claims: TokenClaims) -> Int64 {
        claims.expiresAt + clockSkewSeconds
    }

    /// The headers JWT libraries write for HS256, already encoded: a token with one of them
    /// skips decoding and parsing a header whose verdict is known (an `HS256` `alg`, no `crit`).
    private static let commonHeaders: [[UInt8]] = [#"{"alg":"HS256","typ":"JWT"}"#, #"{"alg":"HS256"}"#].map {
        Array(Base64URL.encode(Array($0.utf8)).utf8)
    }

    private static func object(
        _ segment: ArraySlice<UInt8>, _ part: TokenSegment
    ) throws(TokenError) -> [(String, JSONValue)] {
        guard let json = Base64URL.decode(segment) else { throw .invalidEncoding(part) }
        guard case .object(let members)? = try? JSONParser.parse(json) else { throw .invalidJSON(part) }
        return members
    }

    private static func checkHeader(_ members: [(String, JSONValue)]) throws(TokenError) {
        // Only HS256: the key is a shared secret, and accepting any other `alg` (`none`, or an
        // RS256 "public key" that is really this secret) is the classic JWT downgrade.
        guard case .string(let algorithm)? = members.first(where: { $0.0 == "alg" })?.1,
            algorithm.utf8.elementsEqual("HS256".utf8)
        else { throw .unsupportedAlgorithm }
        if members.contains(where: { $0.0 == "crit" }) { throw .criticalHeader }
    }
}
