import RecentsAuth
import RecentsCrypto
import RecentsTestSupport
import Testing

/// Issue 10's tampering table at the verifier: one test per rejection. Most tokens are signed
/// correctly with the test secret, so each proves its check exists beyond the signature.
@Suite struct JWTTamperingTests {
    let verifier = AuthFixtures.verifier

    func refusal(_ token: String) -> TokenError? {
        do {
            _ = try verifier.verify(token)
            return nil
        } catch {
            return error
        }
    }

    @Test func theUntamperedTokenVerifies() throws {
        let claims = try verifier.verify(AuthFixtures.token())
        #expect(claims.subject == "alice")
    }

    // MARK: - alg

    @Test func algNoneIsRefusedSignedOrUnsigned() {
        let header = #"{"alg":"none","typ":"JWT"}"#
        let signed = AuthFixtures.signed(header: header, payload: AuthFixtures.payload())
        #expect(refusal(signed) == .unsupportedAlgorithm)
        let segments = AuthFixtures.segments(signed)
        #expect(refusal(segments[0] + "." + segments[1] + ".") == .malformed)
    }

    @Test(arguments: ["HS384", "HS512", "RS256", "ES256", "PS256", "hs256", "HS256 ", "", "none", "NONE"])
    func everyOtherAlgIsRefused(algorithm: String) {
        let token = AuthFixtures.signed(header: #"{"alg":"\#(algorithm)"}"#, payload: AuthFixtures.payload())
        #expect(refusal(token) == .unsupportedAlgorithm)
    }

    @Test func aMissingOrNonStringAlgIsRefused() {
        for header in [#"{"typ":"JWT"}"#, #"{"alg":null}"#, #"{"alg":["HS256"]}"#, "{}"] {
            let token = AuthFixtures.signed(header: header, payload: AuthFixtures.payload())
            #expect(refusal(token) == .unsupportedAlgorithm, "\(header)")
        }
    }

    @Test func aCritHeaderIsRefused() {
        let token = AuthFixtures.signed(header: #"{"alg":"HS256","crit":["b64"],"b64":false}"#, payload: "{}")
        #expect(refusal(token) == .criticalHeader)
    }

    // MARK: - header and payload

    @Test func aMissingHeaderIsRefused() {
        let segments = AuthFixtures.segments(AuthFixtures.token())
        #expect(refusal(segments[1] + "." + segments[2]) == .malformed)
        #expect(refusal("." + segments[1] + "." + segments[2]) == .malformed)
    }

    @Test func aNonJSONHeaderIsRefused() {
        for header in ["HS256", #"{"alg":"HS256""#, #"["HS256"]"#, #""HS256""#, #"{"alg":"HS256"} x"#] {
            #expect(
                refusal(AuthFixtures.signed(header: header, payload: AuthFixtures.payload())) == .invalidJSON(.header))
        }
    }

    @Test func aMissingPayloadIsRefused() {
        let segments = AuthFixtures.segments(AuthFixtures.token())
        #expect(refusal(segments[0] + ".." + segments[2]) == .malformed)
    }

    @Test func aNonJSONPayloadIsRefused() {
        for payload in ["alice", #"{"sub":"alice""#, "[1]", "null", #"{"sub":"alice","exp":1e999}"#, "{\u{1}}"] {
            #expect(refusal(AuthFixtures.signed(payload: payload)) == .invalidJSON(.payload), "\(payload)")
        }
    }

    /// RFC 8259 leaves duplicate names open; a reader that took the last `sub` would differ from
    /// one that took the first, so the parser refuses them.
    @Test func aDuplicatedClaimIsRefused() {
        let token = AuthFixtures.signed(payload: #"{"sub":"alice","sub":"bob","exp":\#(AuthFixtures.now + 60)}"#)
        #expect(refusal(token) == .invalidJSON(.payload))
    }

    // MARK: - signature

    @Test func aChangedSignatureByteIsRefused() throws {
        let segments = AuthFixtures.segments(AuthFixtures.token())
        var signature = try #require(Base64URL.decode(Array(segments[2].utf8)))
        signature[7] ^= 0x20
        let token = segments[0] + "." + segments[1] + "." + Base64URL.encode(signature)
        #expect(refusal(token) == .badSignature)
    }

    @Test func aTokenSignedWithAnotherSecretIsRefused() throws {
        let token = try JWTSigner(secret: AuthFixtures.otherSecret).token(list: "alice", ttl: 60, now: AuthFixtures.now)
        #expect(refusal(token) == .badSignature)
    }

    @Test func aChangedPayloadIsRefused() {
        let segments = AuthFixtures.segments(AuthFixtures.token(list: "alice"))
        let forged = Base64URL.encode(Array(#"{"sub":"bob","exp":\#(AuthFixtures.now + 3600)}"#.utf8))
        #expect(refusal(segments[0] + "." + forged + "." + segments[2]) == .badSignature)
    }

    @Test func aTruncatedOrEmptySignatureIsRefused() {
        let segments = AuthFixtures.segments(AuthFixtures.token())
        #expect(refusal(segments[0] + "." + segments[1] + "." + segments[2].dropLast(3)) == .badSignature)
        #expect(refusal(segments[0] + "." + segments[1] + "." + segments[2].prefix(8)) == .badSignature)
    }

    // MARK: - trailing garbage and extra segments

    @Test func trailingGarbageIsRefused() {
        let token = AuthFixtures.token()
        // 43 signature characters plus one still decode (to 33 bytes); plus two cannot.
        #expect(refusal(token + "A") == .badSignature)
        #expect(refusal(token + "AA") == .invalidEncoding(.signature))
        #expect(refusal(token + " ") == .invalidEncoding(.signature))
        #expect(refusal(token + "\0") == .invalidEncoding(.signature))
    }

    @Test func extraSegmentsAreRefused() {
        let token = AuthFixtures.token()
        #expect(refusal(token + ".") == .malformed)
        #expect(refusal(token + "." + AuthFixtures.segments(token)[2]) == .malformed)
        // A JWE has five segments; it is not a JWS at all.
        #expect(refusal(token + ".a.b") == .malformed)
        #expect(refusal("..") == .malformed)
        #expect(refusal("") == .malformed)
    }

    // MARK: - base64url strictness

    @Test func paddingIsRefusedInEverySegment() {
        // Padded base64 spells the same bytes with trailing "="s: refused wherever it appears.
        let token = AuthFixtures.signed(payload: #"{"sub":"alice","exp":\#(AuthFixtures.now + 1)}"#)
        let segments = AuthFixtures.segments(token)
        #expect(refusal(segments[0] + "=." + segments[1] + "." + segments[2]) == .invalidEncoding(.header))
        // Signed over the padded text, so the signature passes and the payload's decoding refuses.
        #expect(refusal(AuthFixtures.signedSegments(segments[0], segments[1] + "=")) == .invalidEncoding(.payload))
        #expect(refusal(AuthFixtures.signedSegments(segments[0], segments[1] + "==")) == .invalidEncoding(.payload))
        #expect(refusal(segments[0] + "." + segments[1] + "." + segments[2] + "=") == .invalidEncoding(.signature))
    }

    @Test func nonURLSafeCharactersAreRefused() throws {
        // Find a token whose signature uses `-` or `_`, then spell it in the standard alphabet.
        var token = AuthFixtures.token()
        var ttl: Int64 = 3600
        while !AuthFixtures.segments(token)[2].contains(where: { $0 == "-" || $0 == "_" }) {
            ttl += 1
            token = try AuthFixtures.signer.token(list: "alice", ttl: ttl, now: AuthFixtures.now)
        }
        let standard = String(AuthFixtures.segments(token)[2].map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        let segments = AuthFixtures.segments(token)
        #expect(refusal(segments[0] + "." + segments[1] + "." + standard) == .invalidEncoding(.signature))
        #expect(refusal(token.replacing("eyJ", with: "ey+")) == .invalidEncoding(.header))
        #expect(
            refusal(AuthFixtures.signedSegments(segments[0], "ey/" + segments[1].dropFirst(3)))
                == .invalidEncoding(.payload))
    }

    @Test func aNonCanonicalSignatureSpellingIsRefused() throws {
        // 32 bytes are 43 characters: the last one carries 2 spare bits, which must be zero.
        let segments = AuthFixtures.segments(AuthFixtures.token())
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = try #require(segments[2].last)
        let value = try #require(alphabet.firstIndex(of: last))
        let respelled = String(segments[2].dropLast()) + String(alphabet[value | 1])
        #expect(refusal(segments[0] + "." + segments[1] + "." + respelled) == .invalidEncoding(.signature))
    }

    @Test func nonASCIIBytesAreRefused() {
        let token = AuthFixtures.token()
        #expect(refusal("é" + token) == .invalidEncoding(.header))
    }

    // MARK: - size

    @Test func aHugeTokenIsRefusedUnread() {
        let huge = String(repeating: "A", count: 1 << 20) + "." + AuthFixtures.token()
        #expect(refusal(huge) == .tooLong)
        let justOver = String(repeating: "A", count: JWTVerifier.maximumTokenBytes + 1)
        #expect(refusal(justOver) == .tooLong)
    }

    /// The limit is on bytes, not on what the token claims: a long but well-signed token under
    /// it still verifies (unknown claims are ignored, RFC 7519 §4).
    @Test func aLongTokenUnderTheLimitVerifies() throws {
        let padding = String(repeating: "x", count: 2500)
        let token = AuthFixtures.signed(payload: AuthFixtures.payload(#","note":"\#(padding)""#))
        #expect(token.utf8.count <= JWTVerifier.maximumTokenBytes)
        #expect(try verifier.verify(token).subject == "alice")
    }
}

/// The verifier skips parsing the two headers libraries usually write; every other spelling
/// takes the full path and must reach the same verdict.
@Suite struct JWTHeaderSpellingTests {
    @Test(arguments: [
        #"{"alg":"HS256","typ":"JWT"}"#, #"{"alg":"HS256"}"#, #"{"typ":"JWT","alg":"HS256"}"#,
        #"{ "alg" : "HS256" }"#, #"{"alg":"HS\u0032\u0035\u0036","kid":"k1"}"#,
    ])
    func equivalentHeadersVerify(header: String) throws {
        let token = AuthFixtures.signed(header: header, payload: AuthFixtures.payload())
        #expect(try AuthFixtures.verifier.verify(token).subject == "alice")
    }
}
