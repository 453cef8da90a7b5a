import RecentsTestSupport
import Testing

@testable import RecentsAuth

/// The verified-token cache never relaxes a rule: every check that is not the signature runs
/// on every use, and only exactly the bytes that verified find cached claims.
@Suite struct TokenCacheTests {
    static let now = AuthFixtures.now

    /// A verifier of its own, so other suites' tokens do not share its cache.
    func verifier(capacity: Int = JWTVerifier.defaultCacheCapacity) -> JWTVerifier {
        JWTVerifier(secret: AuthFixtures.secret, clock: { Self.now }, cacheCapacity: capacity)
    }

    func cachedCount(_ verifier: JWTVerifier) -> Int { verifier.cache?.count ?? -1 }

    @Test func aSecondUseIsAHitWithTheSameClaims() throws {
        let verifier = verifier()
        let token = AuthFixtures.token(list: "alice", scope: .read)
        let first = try verifier.verify(token)
        #expect(cachedCount(verifier) == 1)
        #expect(try verifier.verify(token) == first)
        #expect(cachedCount(verifier) == 1)
    }

    @Test func aCachedTokenPastExpPlusSkewIsRefusedAndForgotten() throws {
        let verifier = verifier()
        let token = AuthFixtures.token(list: "alice")  // exp = now + 3600
        _ = try verifier.verify(token, now: Self.now)
        #expect(cachedCount(verifier) == 1)
        _ = try verifier.verify(token, now: Self.now + 3600 + 59)
        #expect(throws: TokenError.expired) { try verifier.verify(token, now: Self.now + 3600 + 60) }
        #expect(cachedCount(verifier) == 0)
        #expect(throws: TokenError.expired) { try verifier.verify(token, now: Self.now + 3600 + 60) }
    }

    @Test func aTokenNotYetValidIsNotCachedAndIsAcceptedOnceItIs() throws {
        let verifier = verifier()
        let nbf = Self.now + 1000
        let token = AuthFixtures.signed(payload: #"{"sub":"alice","nbf":\#(nbf),"exp":\#(nbf + 3600)}"#)
        #expect(throws: TokenError.notYetValid) { try verifier.verify(token, now: nbf - 61) }
        #expect(cachedCount(verifier) == 0)
        _ = try verifier.verify(token, now: nbf - 60)
        #expect(cachedCount(verifier) == 1)
        // A hit checks `nbf` too (a clock that stepped back), and keeps the entry for later.
        #expect(throws: TokenError.notYetValid) { try verifier.verify(token, now: nbf - 61) }
        _ = try verifier.verify(token, now: nbf)
    }

    @Test func tokensSharingAPrefixWithACachedOneAreVerifiedOnTheirOwn() throws {
        let verifier = verifier()
        let token = AuthFixtures.token(list: "alice")
        _ = try verifier.verify(token)
        var lastChanged = token
        let last = lastChanged.removeLast()
        lastChanged.append(last == "A" ? "B" : "A")
        let payloadSwapped = [
            AuthFixtures.segments(token)[0],
            Base64URLForTests.encode(#"{"sub":"bob","exp":\#(Self.now + 3600)}"#),
            AuthFixtures.segments(token)[2],
        ].joined(separator: ".")
        for tampered in [lastChanged, token + "A", String(token.dropLast()), token + ".", payloadSwapped] {
            #expect(throws: TokenError.self) { try verifier.verify(tampered) }
        }
        #expect(cachedCount(verifier) == 1)
    }

    /// Swift's `==` on strings is canonical equivalence, under which KELVIN SIGN equals `K`:
    /// the cache compares bytes, so the look-alike is decoded, and refused, on its own.
    @Test func aCanonicallyEquivalentSpellingIsNotTheCachedToken() throws {
        let verifier = verifier()
        let token = try #require(
            (1...200).lazy.map { try? AuthFixtures.signer.token(list: "alice", ttl: $0, now: Self.now) }
                .first { $0?.contains("K") == true } ?? nil)
        _ = try verifier.verify(token)
        let lookalike = token.replacingFirstK(with: "\u{212A}")
        #expect(lookalike == token)  // what a String-keyed cache would have matched
        #expect(throws: TokenError.self) { try verifier.verify(lookalike) }
    }

    /// The key hashes only a token's tail, so tokens differing in their head share a bucket:
    /// a lookup must still tell them apart by every byte.
    @Test func tokensSharingTheirHashedTailAreDifferentKeys() {
        let tail = [UInt8](repeating: UInt8(ascii: "t"), count: TokenKey.hashedSuffix)
        let first = TokenKey(bytes: Array("alice.".utf8) + tail)
        let second = TokenKey(bytes: Array("bobby.".utf8) + tail)
        #expect(first.hashValue == second.hashValue)
        #expect(first != second)
        #expect(first == TokenKey(bytes: Array("alice.".utf8) + tail))
        #expect(TokenKey(bytes: []) == TokenKey(bytes: []))
        #expect(TokenKey(bytes: []) != TokenKey(bytes: [0]))

        let cache = TokenCache(capacity: 4)
        let claims = TokenClaims(
            subject: "alice", expiresAt: Self.now + 60, notBefore: nil, issuedAt: nil, scope: .read)
        cache.store(CachedToken(claims: claims), for: first.bytes)
        #expect(cache.entry(for: second.bytes) == nil)
        #expect(cache.entry(for: first.bytes)?.claims == claims)
    }

    @Test func aRefusedTokenIsNotCached() {
        let verifier = verifier()
        let expired = AuthFixtures.signed(payload: #"{"sub":"alice","exp":\#(Self.now - 61)}"#)
        let wrongKey = try? JWTSigner(secret: AuthFixtures.otherSecret).token(list: "alice", ttl: 60, now: Self.now)
        for token in [expired, wrongKey ?? "", "a.b.c"] {
            #expect(throws: TokenError.self) { try verifier.verify(token) }
            #expect(throws: TokenError.self) { try verifier.verify(token) }
        }
        #expect(cachedCount(verifier) == 0)
    }

    @Test func theCacheHoldsAtMostItsCapacity() throws {
        let capacity = 16
        let verifier = verifier(capacity: capacity)
        let tokens = (0..<(capacity + 40)).map { AuthFixtures.token(list: "list-\($0)") }
        for token in tokens {
            _ = try verifier.verify(token)
            #expect(cachedCount(verifier) <= capacity)
        }
        #expect(cachedCount(verifier) == capacity)
        // An evicted token is simply verified again.
        #expect(try verifier.verify(tokens[0]).subject == "list-0")
        #expect(cachedCount(verifier) == capacity)
    }

    @Test func aCapacityOfZeroTurnsTheCacheOff() throws {
        let verifier = verifier(capacity: 0)
        #expect(verifier.cache == nil)
        #expect(try verifier.verify(AuthFixtures.token()).subject == "alice")
    }

    @Test func aTokenCachedUnderOneSecretIsRefusedUnderAnother() throws {
        let token = AuthFixtures.token()
        _ = try verifier().verify(token)
        let other = JWTVerifier(secret: AuthFixtures.otherSecret, clock: { Self.now })
        #expect(throws: TokenError.badSignature) { try other.verify(token) }
    }

    @Test func theQueryTokenAndTheHeaderShareTheCache() throws {
        let verifier = verifier()
        let token = AuthFixtures.token(list: "alice", scope: .read)
        let claims = try verifier.verify(token)
        #expect(verifier.credential(authorization: [], accessToken: token) == .verified(claims))
        #expect(verifier.credential(authorization: ["Bearer \(token)"]) == .verified(claims))
        #expect(cachedCount(verifier) == 1)
    }

    @Test func aCachedTokenStillOpensOnlyItsOwnListWithItsOwnScope() {
        let verifier = verifier()
        let token = AuthFixtures.token(list: "a", scope: .read)
        let credential = verifier.credential(authorization: ["Bearer \(token)"])
        guard case .verified = credential else {
            Issue.record("the token did not verify: \(credential)")
            return
        }
        let hit = verifier.credential(authorization: ["Bearer \(token)"])
        #expect(Authorizer.decide(hit, resource: .list("a"), access: .read).status == 200)
        #expect(Authorizer.decide(hit, resource: .list("b"), access: .read) == .forbidden)
        #expect(Authorizer.decide(hit, resource: .list("ab"), access: .read) == .forbidden)
        #expect(Authorizer.decide(hit, resource: .list("a"), access: .write) == .forbidden)
        #expect(Authorizer.decide(hit, resource: .metrics, access: .read) == .forbidden)
    }
}

extension String {
    /// This string with its first `K` replaced by `replacement`, byte for byte different.
    func replacingFirstK(with replacement: String) -> String {
        guard let k = firstIndex(of: "K") else { return self }
        return String(self[..<k]) + replacement + String(self[index(after: k)...])
    }
}
