import RecentsAuth
import RecentsTestSupport
import Testing

/// Claims that are present, signed and still wrong.
@Suite struct JWTClaimsTests {
    static let exp = AuthFixtures.now + 3600

    func refusal(_ payload: String) -> TokenError? {
        do {
            _ = try AuthFixtures.verifier.verify(AuthFixtures.signed(payload: payload))
            return nil
        } catch {
            return error
        }
    }

    @Test func subIsRequired() {
        #expect(refusal(#"{"exp":\#(Self.exp)}"#) == .missingClaim(.subject))
    }

    @Test(arguments: [
        #""""#, #""a/b""#, #""a b""#, #""al:ice""#, #""ali\u00e9""#, #""../x""#, #""alice\n""#, "1", "null",
        #"["alice"]"#, "\"\(String(repeating: "a", count: 65))\"",
    ])
    func subMustBeAListName(sub: String) {
        #expect(refusal(#"{"sub":\#(sub),"exp":\#(Self.exp)}"#) == .invalidClaim(.subject))
    }

    @Test func subOfTheLongestListNameIsAccepted() throws {
        let name = String(repeating: "a", count: 64)
        let claims = try AuthFixtures.verifier.verify(
            AuthFixtures.signed(payload: #"{"sub":"\#(name)","exp":\#(Self.exp)}"#))
        #expect(claims.subject == name)
    }

    @Test func expIsRequired() {
        #expect(refusal(#"{"sub":"alice"}"#) == .missingClaim(.expiration))
        #expect(refusal(#"{"sub":"alice","nbf":1}"#) == .missingClaim(.expiration))
    }

    @Test(arguments: [#""1796083200""#, "-1", "true", "null", "1e20", "253402300800", #"{"t":1}"#])
    func expMustBeANumericDateInRange(exp: String) {
        #expect(refusal(#"{"sub":"alice","exp":\#(exp)}"#) == .invalidClaim(.expiration))
    }

    @Test func nbfAndIatMustBeNumericDatesWhenPresent() {
        #expect(refusal(AuthFixtures.payload(#","nbf":"soon""#)) == .invalidClaim(.notBefore))
        #expect(refusal(AuthFixtures.payload(#","iat":null"#)) == .invalidClaim(.issuedAt))
        #expect(refusal(AuthFixtures.payload(#","iat":-5"#)) == .invalidClaim(.issuedAt))
    }

    @Test(arguments: [
        "1", "null", #"["read"]"#, #""""#, #"" read""#, #""read ""#, #""read  write""#, #""read\twrite""#,
    ])
    func scopeMustBeWellFormed(scope: String) {
        #expect(refusal(AuthFixtures.payload(#","scope":\#(scope)"#)) == .invalidClaim(.scope))
    }

    @Test(
        arguments: [
            ("read", TokenScope.read), ("write", .write), ("read write", [.read, .write]), ("admin", .admin),
            ("write read admin", [.read, .write, .admin]), ("read profile email", .read),
            // Naming none of the three reads as no claim at all, as for a provider's token (issue 38).
            ("Read WRITE", [.read, .write]), ("openid", [.read, .write]),
        ] as [(String, TokenScope)])
    func scopeWordsAreReadAndUnknownOnesIgnored(scope: String, expected: TokenScope) throws {
        let claims = try AuthFixtures.verifier.verify(
            AuthFixtures.signed(payload: AuthFixtures.payload(#","scope":"\#(scope)""#)))
        #expect(claims.scope == expected)
    }

    @Test func anAbsentScopeMeansReadWrite() throws {
        #expect(
            try AuthFixtures.verifier.verify(AuthFixtures.signed(payload: AuthFixtures.payload())).scope == [
                .read, .write,
            ])
    }

    @Test func unknownClaimsAreIgnored() throws {
        let payload = AuthFixtures.payload(#","iss":"backend","aud":["recents"],"jti":"x","nested":{"a":[1,2]}"#)
        #expect(try AuthFixtures.verifier.verify(AuthFixtures.signed(payload: payload)).subject == "alice")
    }
}
