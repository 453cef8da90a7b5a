import RecentsCrypto
import Testing

/// Verification against keys and signatures made by PyJWT and `cryptography` (see JWTFixtures).
@Suite struct JWTFixtureTests {
    static let fixtures = JWTFixtures.shared

    @Test func theFixturesCoverEveryAlgorithm() {
        let valid = Set(Self.fixtures.signatures.filter(\.valid).map(\.alg))
        #expect(valid == Set(SignatureAlgorithm.allCases.map(\.rawValue)))
        #expect(Self.fixtures.signatures.contains { !$0.valid })
    }

    @Test(arguments: ["rs256", "ps256", "es256", "eddsa"])
    func everyPublishedKeyLoads(name: String) throws {
        let members = try #require(Self.fixtures.keys[name])
        let jwk = try JWK(members)
        #expect(jwk.kid == name)
        #expect(jwk.algorithm.rawValue == members.strings["alg"])
    }

    /// Valid signatures verify; tampered messages or signatures, another key's signature, an
    /// ES256 signature in DER, a PSS salt of the wrong length and an RSA signature short of its
    /// leading zero octet do not.
    @Test(arguments: fixtures.signatures)
    func signatureVerifiesExactlyWhenValid(entry: JWTFixtures.Signature) throws {
        let jwk = try JWK(try #require(Self.fixtures.keys[entry.key]))
        let algorithm = try #require(SignatureAlgorithm(rawValue: entry.alg))
        let signature = try #require(Base64URL.decode(Array(entry.signature.utf8)))
        let message = Array(entry.message.utf8)
        #expect(jwk.key.verify(signature: signature, message: message, algorithm: algorithm) == entry.valid)
        if algorithm == jwk.algorithm {
            #expect(jwk.verify(signature: signature, message: message) == entry.valid)
        }
    }

    /// A valid signature checked under any other algorithm, or by a key of another type, fails.
    @Test(arguments: fixtures.signatures.filter(\.valid))
    func aValidSignatureVerifiesOnlyUnderItsAlgorithmAndKey(entry: JWTFixtures.Signature) throws {
        let signature = try #require(Base64URL.decode(Array(entry.signature.utf8)))
        let message = Array(entry.message.utf8)
        for (name, members) in Self.fixtures.keys {
            let key = try JWK(members).key
            for algorithm in SignatureAlgorithm.allCases where (name, algorithm.rawValue) != (entry.key, entry.alg) {
                #expect(
                    !key.verify(signature: signature, message: message, algorithm: algorithm), "\(name) \(algorithm)")
            }
        }
    }

    @Test(arguments: fixtures.refusedKeys)
    func refusedKeyNamesTheMemberAtFault(entry: JWTFixtures.RefusedKey) {
        let error = #expect(throws: JWKError.self) { try JWK(entry.jwk) }
        #expect(error?.member == entry.member, "\(error.map(String.init(describing:)) ?? "accepted")")
    }
}
