import RecentsAuth
import RecentsCrypto
import RecentsTestSupport
import Testing

@Suite struct JWTSignerTests {
    @Test(arguments: [TokenScope.absentClaim, .read, .write, .admin, [.read, .admin]])
    func signedTokensVerifyToTheSameClaims(scope: TokenScope) throws {
        let token = try AuthFixtures.signer.token(list: "bob.smith_2-x", scope: scope, ttl: 900, now: AuthFixtures.now)
        let claims = try AuthFixtures.verifier.verify(token)
        #expect(
            claims
                == TokenClaims(
                    subject: "bob.smith_2-x", expiresAt: AuthFixtures.now + 900, issuedAt: AuthFixtures.now,
                    scope: scope))
    }

    @Test func signedClaimsWithNotBeforeRoundTrip() throws {
        let claims = TokenClaims(
            subject: "carol", expiresAt: AuthFixtures.now + 10, notBefore: AuthFixtures.now - 5, issuedAt: nil,
            scope: .read)
        #expect(try AuthFixtures.verifier.verify(AuthFixtures.signer.sign(claims)) == claims)
    }

    @Test func theTokenLooksLikeEveryOtherHS256JWT() throws {
        let token = try AuthFixtures.signer.token(list: "alice", scope: .read, ttl: 60, now: 1000)
        let segments = AuthFixtures.segments(token)
        #expect(segments.count == 3)
        #expect(Base64URL.decode(Array(segments[0].utf8)) == Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        #expect(
            Base64URL.decode(Array(segments[1].utf8))
                == Array(#"{"sub":"alice","scope":"read","iat":1000,"exp":1060}"#.utf8))
        #expect(Base64URL.decode(Array(segments[2].utf8))?.count == 32)
    }

    @Test func invalidRequestsAreRefused() {
        let signer = AuthFixtures.signer
        #expect(throws: TokenSigningError.self) { try signer.token(list: "a/b", ttl: 60, now: 0) }
        #expect(throws: TokenSigningError.self) { try signer.token(list: "", ttl: 60, now: 0) }
        #expect(throws: TokenSigningError.self) { try signer.token(list: "a", scope: [], ttl: 60, now: 0) }
        #expect(throws: TokenSigningError.self) { try signer.token(list: "a", ttl: 0, now: 0) }
        #expect(throws: TokenSigningError.self) { try signer.token(list: "a", ttl: .max, now: 10) }
        #expect(throws: TokenSigningError.self) { try signer.token(list: "a", ttl: 60, now: -100) }
    }

    /// RFC 7515 Appendix A.1, the HS256 example: the signature is the RFC's, so the verifier
    /// passes it and stops at the missing `sub` (the example is a generic JWT, not one of ours).
    @Test func rfc7515AppendixA1() throws {
        let key = try #require(
            Base64URL.decode(
                Array("AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow".utf8)))
        let header = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
        let payload = "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        let signature = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let code = HMACSHA256.authenticationCode(key: key, message: Array("\(header).\(payload)".utf8))
        #expect(Base64URL.encode(code) == signature)

        let secret = try AuthSecret(bytes: key)
        let verifier = JWTVerifier(secret: secret, clock: { 1_300_819_000 })
        #expect(throws: TokenError.missingClaim(.subject)) { try verifier.verify("\(header).\(payload).\(signature)") }
        #expect(throws: TokenError.badSignature) {
            try verifier.verify("\(header).\(payload).\(signature.dropLast(3))")
        }
        let decodedHeader = try #require(Base64URL.decode(Array(header.utf8)))
        let decodedPayload = try #require(Base64URL.decode(Array(payload.utf8)))
        #expect(
            JWTSigner(secret: secret).signCompact(header: decodedHeader, payload: decodedPayload)
                == "\(header).\(payload).\(signature)")
    }
}
