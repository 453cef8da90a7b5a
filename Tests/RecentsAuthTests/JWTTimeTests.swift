import RecentsAuth
import RecentsTestSupport
import Testing

/// `exp` and `nbf` with 60 s of skew: accepted while `now < exp + 60` and `now >= nbf - 60`.
@Suite struct JWTTimeTests {
    static let exp = AuthFixtures.now
    static let nbf = AuthFixtures.now + 1000

    func result(payload: String, at now: Int64) -> Result<TokenClaims, TokenError> {
        Result { () throws(TokenError) in
            try AuthFixtures.verifier.verify(AuthFixtures.signed(payload: payload), now: now)
        }
    }

    @Test(arguments: [
        (-3600, true), (0, true), (59, true), (60, false), (61, false), (3600, false),
    ])
    func expirationBoundary(secondsAfterExp: Int64, accepted: Bool) {
        let outcome = result(payload: #"{"sub":"alice","exp":\#(Self.exp)}"#, at: Self.exp + secondsAfterExp)
        if accepted {
            #expect((try? outcome.get()) != nil)
        } else {
            #expect(throws: TokenError.expired) { try outcome.get() }
        }
    }

    @Test(arguments: [
        (3600, true), (0, true), (-59, true), (-60, true), (-61, false), (-3600, false),
    ])
    func notBeforeBoundary(secondsAfterNbf: Int64, accepted: Bool) {
        let payload = #"{"sub":"alice","nbf":\#(Self.nbf),"exp":\#(Self.nbf + 7200)}"#
        let outcome = result(payload: payload, at: Self.nbf + secondsAfterNbf)
        if accepted {
            #expect((try? outcome.get()) != nil)
        } else {
            #expect(throws: TokenError.notYetValid) { try outcome.get() }
        }
    }

    /// Fractions round towards refusal: `exp` down, `nbf` up.
    @Test func fractionalNumericDatesRoundTowardsTheStricterSide() throws {
        let claims = try result(
            payload: #"{"sub":"alice","nbf":\#(Self.exp - 10).5,"iat":1.9,"exp":\#(Self.exp).9}"#, at: Self.exp
        ).get()
        #expect(claims.expiresAt == Self.exp)
        #expect(claims.notBefore == Self.exp - 9)
        #expect(claims.issuedAt == 1)
        #expect(JWTVerifier.expiryDeadline(of: claims) == Self.exp + 60)
    }

    @Test func theInjectedClockDecides() throws {
        let token = try AuthFixtures.signer.token(list: "alice", ttl: 100, now: 5000)
        #expect(throws: Never.self) { try JWTVerifier(secret: AuthFixtures.secret, clock: { 5159 }).verify(token) }
        #expect(throws: TokenError.expired) {
            try JWTVerifier(secret: AuthFixtures.secret, clock: { 5160 }).verify(token)
        }
        #expect(throws: TokenError.expired) { try JWTVerifier(secret: AuthFixtures.secret).verify(token) }
    }
}
