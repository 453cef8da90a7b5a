import RecentsTestSupport
import Synchronization
import Testing

@testable import RecentsAuth

/// A token kept by its caller (one per connection) and handed back skips the shared cache, and
/// nothing else: the same bytes only, the same verifier only, and every time check on every use.
@Suite struct RememberedTokenTests {
    static let now = AuthFixtures.now

    /// A verifier of its own whose clock the test moves.
    final class Clock: Sendable {
        private let time = Mutex(RememberedTokenTests.now)
        var now: Int64 {
            get { time.withLock { $0 } }
            set { time.withLock { $0 = newValue } }
        }
    }

    func verifier(_ clock: Clock = Clock(), secret: AuthSecret = AuthFixtures.secret, capacity: Int = 64)
        -> JWTVerifier
    {
        JWTVerifier(secret: secret, clock: { clock.now }, cacheCapacity: capacity)
    }

    func credential(_ verifier: JWTVerifier, _ token: String, _ remembered: RememberedToken?) -> (
        credential: Credential, keep: RememberedToken?
    ) {
        verifier.credential(authorization: ["Bearer \(token)"], accessToken: nil, remembered: remembered)
    }

    @Test func theSameTokenAgainIsTakenFromWhatWasKeptNotFromTheCache() throws {
        let verifier = verifier()
        let token = AuthFixtures.token(list: "alice", scope: .read)
        let first = credential(verifier, token, nil)
        let kept = try #require(first.keep)
        guard case .verified(let claims) = first.credential else {
            Issue.record("the token did not verify: \(first.credential)")
            return
        }
        // Gone from the cache, the kept token still answers, and the cache is not refilled: the
        // second use never reached it.
        verifier.cache?.remove(Array(token.utf8))
        let second = credential(verifier, token, kept)
        #expect(second.credential == .verified(claims))
        #expect(second.keep === kept)
        #expect(verifier.cache?.count == 0)
    }

    @Test func anotherTokenIsVerifiedOnItsOwnAndReplacesWhatWasKept() throws {
        let verifier = verifier()
        let alice = AuthFixtures.token(list: "alice", scope: .read)
        let bob = AuthFixtures.token(list: "bob", scope: .read)
        let kept = try #require(credential(verifier, alice, nil).keep)
        let other = credential(verifier, bob, kept)
        guard case .verified(let claims) = other.credential else {
            Issue.record("bob's token did not verify: \(other.credential)")
            return
        }
        #expect(claims.subject == "bob")
        #expect(other.keep !== kept)
        #expect(other.keep != nil)
    }

    @Test func aTokenDifferingByOneByteIsNotTheKeptOne() throws {
        let verifier = verifier()
        let token = AuthFixtures.token(list: "alice")
        let kept = try #require(credential(verifier, token, nil).keep)
        var tampered = token
        let last = tampered.removeLast()
        tampered.append(last == "A" ? "B" : "A")
        for variant in [tampered, token + "A", String(token.dropLast()), token.replacingFirstK(with: "\u{212A}")]
        where variant.utf8.elementsEqual(token.utf8) == false {
            let answer = credential(verifier, variant, kept)
            guard case .rejected = answer.credential else {
                Issue.record("a variant of the kept token was accepted: \(answer.credential)")
                continue
            }
            #expect(answer.keep == nil)
        }
    }

    @Test func aKeptTokenExpiresExactlyWhenAnUncachedOneWould() throws {
        let clock = Clock()
        let verifier = verifier(clock)
        let token = AuthFixtures.token(list: "alice")  // exp = now + 3600, 60 s of skew
        let kept = try #require(credential(verifier, token, nil).keep)
        clock.now = Self.now + 3600 + 59
        #expect(credential(verifier, token, kept).keep === kept)
        clock.now = Self.now + 3600 + 60
        let expired = credential(verifier, token, kept)
        #expect(expired.credential == .rejected(.expired))
        #expect(expired.keep == nil)
        #expect(verifier.cache?.count == 0)
    }

    @Test func aKeptTokenIsStillCheckedAgainstNotBefore() throws {
        let clock = Clock()
        let verifier = verifier(clock)
        let nbf = Self.now + 1000
        let token = AuthFixtures.signed(payload: #"{"sub":"alice","nbf":\#(nbf),"exp":\#(nbf + 3600)}"#)
        clock.now = nbf
        let kept = try #require(credential(verifier, token, nil).keep)
        // A clock stepped back: refused from what was kept as it would be from the cache.
        clock.now = nbf - 61
        #expect(credential(verifier, token, kept).credential == .rejected(.notYetValid))
    }

    @Test func anotherVerifiersKeptTokenIsNotTaken() throws {
        let token = AuthFixtures.token(list: "alice")
        let kept = try #require(credential(verifier(), token, nil).keep)
        let other = verifier(secret: AuthFixtures.otherSecret)
        #expect(credential(other, token, kept).credential == .rejected(.badSignature))
    }

    @Test func withTheCacheOffNothingIsKept() {
        let verifier = verifier(capacity: 0)
        let answer = credential(verifier, AuthFixtures.token(list: "alice"), nil)
        guard case .verified = answer.credential else {
            Issue.record("the token did not verify: \(answer.credential)")
            return
        }
        #expect(answer.keep == nil)
    }
}
