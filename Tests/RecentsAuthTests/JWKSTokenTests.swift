import Foundation
import RecentsCrypto
import RecentsTestSupport
import SystemSupport
import Testing

@testable import RecentsAuth

/// Issue 25's refusal table at the verifier, over tokens PyJWT minted (Fixtures/jwks-tokens.json):
/// every token gets the verdict its fixture names, under the initial key set and the rotated one.
@Suite struct JWKSTokenTests {
    static let fixtures = JWKSFixtures.shared

    /// A verifier of `set` at the fixtures' instant (and the HS256 test secret when `secret`).
    static func verifier(
        _ set: Data, secret: Bool = false, cacheCapacity: Int = 16
    ) throws -> (JWTVerifier, IdentityProvider, String) {
        let path = try JWKSFixtures.writeKeySet(set)
        let provider = try IdentityProvider(
            issuer: fixtures.issuer, audience: fixtures.audience, keySetFile: path, logger: Logger(level: .error))
        let now = fixtures.now
        let verifier = JWTVerifier(
            secret: secret ? AuthFixtures.secret : nil, provider: provider, clock: { now },
            cacheCapacity: cacheCapacity)
        return (verifier, provider, path)
    }

    /// "accept", or the refusal named as the fixtures name it.
    static func verdict(_ verifier: JWTVerifier, _ token: String) -> String {
        do {
            _ = try verifier.verify(token)
            return "accept"
        } catch {
            return name(error)
        }
    }

    static func name(_ error: TokenError) -> String {
        switch error {
        case .unknownKey: "unknownKey"
        case .algorithmMismatch: "algorithmMismatch"
        case .unsupportedAlgorithm: "unsupportedAlgorithm"
        case .badSignature: "badSignature"
        case .wrongIssuer: "wrongIssuer"
        case .wrongAudience: "wrongAudience"
        case .expired: "expired"
        case .notYetValid: "notYetValid"
        case .malformed: "malformed"
        case .criticalHeader: "criticalHeader"
        case .missingClaim(let claim): "missingClaim:\(claim.rawValue)"
        case .invalidClaim(let claim): "invalidClaim:\(claim.rawValue)"
        default: "\(error)"
        }
    }

    @Test func theTableCoversEveryAlgorithmAndEveryRefusalOfTheIssue() {
        let accepted = Set(Self.fixtures.tokens.filter { $0.initial == "accept" }.map(\.name))
        for algorithm in SignatureAlgorithm.allCases { #expect(accepted.contains("\(algorithm.rawValue) token")) }
        let refusals = Set(Self.fixtures.tokens.map(\.initial))
        for refusal in [
            "unknownKey", "algorithmMismatch", "unsupportedAlgorithm", "badSignature", "wrongIssuer", "wrongAudience",
            "expired", "notYetValid", "invalidClaim:sub", "malformed",
        ] {
            #expect(refusals.contains(refusal), "\(refusal)")
        }
    }

    @Test(arguments: fixtures.tokens)
    func eachTokenGetsItsVerdictUnderTheInitialSet(token: JWKSFixtures.Token) throws {
        let (verifier, _, path) = try Self.verifier(Self.fixtures.initial)
        defer { JWKSFixtures.remove(path) }
        #expect(Self.verdict(verifier, token.token) == token.initial)
        // A second use comes from the cache, or is refused again: never a different verdict.
        #expect(Self.verdict(verifier, token.token) == token.initial)
        if token.initial == "accept" {
            let claims = try verifier.verify(token.token)
            #expect(claims.subject == token.list)
            #expect(claims.scope.description == token.scope)
        }
    }

    @Test(arguments: fixtures.tokens)
    func eachTokenGetsItsVerdictUnderTheRotatedSet(token: JWKSFixtures.Token) throws {
        let (verifier, _, path) = try Self.verifier(Self.fixtures.rotated)
        defer { JWKSFixtures.remove(path) }
        #expect(Self.verdict(verifier, token.token) == token.rotated)
    }

    /// Without a secret HS256 is not accepted at all; with one, an HS256 token made with a public
    /// key's PEM as the HMAC key is just a bad signature, and both kinds of token verify side by side.
    @Test func hs256WorksBesideTheKeySetAndThePEMTrickFailsEitherWay() throws {
        let pemTrick = try #require(Self.fixtures.tokens.first { $0.name.hasPrefix("HS256 signed with") }).token
        let (withSecret, _, path) = try Self.verifier(Self.fixtures.initial, secret: true)
        defer { JWKSFixtures.remove(path) }
        #expect(Self.verdict(withSecret, pemTrick) == "badSignature")
        #expect(try withSecret.verify(AuthFixtures.token(list: "bob")).subject == "bob")
        #expect(try withSecret.verify(Self.fixtures.live("alice-es256")).subject == "alice")

        let (withoutSecret, _, other) = try Self.verifier(Self.fixtures.initial)
        defer { JWKSFixtures.remove(other) }
        #expect(Self.verdict(withoutSecret, AuthFixtures.token(list: "bob")) == "unsupportedAlgorithm")
    }

    /// A server with only a secret refuses a provider's token before looking at any key.
    @Test func aSecretOnlyVerifierRefusesPublicKeyTokens() {
        #expect(Self.verdict(AuthFixtures.verifier, Self.fixtures.live("alice-rs256")) == "unsupportedAlgorithm")
    }

    /// `iss` and `aud` are the ones configured, exactly: another audience refuses the whole set's tokens.
    @Test func anotherAudienceOrIssuerRefusesGoodTokens() throws {
        let path = try JWKSFixtures.writeKeySet(Self.fixtures.initial)
        defer { JWKSFixtures.remove(path) }
        let now = Self.fixtures.now
        let token = try #require(Self.fixtures.tokens.first { $0.name == "ES256 token" }).token
        for (issuer, audience, expected) in [
            (Self.fixtures.issuer, "recents-staging", "wrongAudience"),
            ("https://issuer.example/", "recents", "wrongIssuer"),
            (Self.fixtures.issuer, "RECENTS", "wrongAudience"),
        ] {
            let provider = try IdentityProvider(
                issuer: issuer, audience: audience, keySetFile: path, logger: Logger(level: .error))
            let verifier = JWTVerifier(secret: nil, provider: provider, clock: { now })
            #expect(Self.verdict(verifier, token) == expected, "\(issuer) \(audience)")
        }
    }
}
