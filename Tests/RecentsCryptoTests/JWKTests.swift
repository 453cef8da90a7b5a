import RecentsCrypto
import Testing

/// The member rules of a JWK (RFC 7517 §4, RFC 7518 §6, RFC 8037 §2), each error naming its member.
@Suite struct JWKTests {
    static let fixtures = JWTFixtures.shared

    /// A fixture key's members with some replaced (nil removes one).
    struct Case: Sendable, CustomStringConvertible {
        var key: String
        var changes: [String: String?]
        var keyOps: [String]?
        /// The member the error must name, or nil when the key must load.
        var refused: String?
        var description: String {
            "\(key) \(changes.map { "\($0.key)=\($0.value ?? "nil")" }.sorted()) → \(refused ?? "ok")"
        }

        init(_ key: String, _ changes: [String: String?], keyOps: [String]? = nil, refused: String?) {
            self.key = key
            self.changes = changes
            self.keyOps = keyOps
            self.refused = refused
        }
    }

    static let cases: [Case] = [
        Case("rs256", [:], refused: nil),
        Case("rs256", ["use": nil], refused: nil),
        Case("rs256", ["alg": "PS256"], refused: nil),
        Case("ps256", ["alg": "RS256"], refused: nil),
        Case("es256", ["use": "sig"], refused: nil),
        Case("rs256", [:], keyOps: ["verify"], refused: nil),
        Case("rs256", ["kty": nil], refused: "kty"),
        Case("rs256", ["kty": "oct"], refused: "kty"),
        Case("rs256", ["kty": "rsa"], refused: "kty"),
        Case("rs256", ["kid": nil], refused: "kid"),
        Case("rs256", ["kid": ""], refused: "kid"),
        Case("rs256", ["use": "enc"], refused: "use"),
        Case("rs256", [:], keyOps: ["sign"], refused: "key_ops"),
        Case("rs256", [:], keyOps: [], refused: "key_ops"),
        Case("rs256", ["alg": nil], refused: "alg"),
        Case("rs256", ["alg": "none"], refused: "alg"),
        Case("rs256", ["alg": "HS256"], refused: "alg"),
        Case("rs256", ["alg": "rs256"], refused: "alg"),
        Case("rs256", ["alg": "EdDSA"], refused: "alg"),
        Case("es256", ["alg": "PS256"], refused: "alg"),
        Case("eddsa", ["alg": "ES256"], refused: "alg"),
        Case("es256", ["crv": nil], refused: "crv"),
        Case("es256", ["crv": "P-384"], refused: "crv"),
        Case("es256", ["crv": "secp256k1"], refused: "crv"),
        Case("eddsa", ["crv": "X25519"], refused: "crv"),
        Case("eddsa", ["crv": "P-256"], refused: "crv"),
        Case("rs256", ["n": nil], refused: "n"),
        Case("rs256", ["e": nil], refused: "e"),
        Case("rs256", ["e": "AQAB="], refused: "e"),
        Case("rs256", ["e": "AQAC"], refused: "e"),
        Case("rs256", ["e": "AQ+B"], refused: "e"),
        Case("es256", ["x": nil], refused: "x"),
        Case("es256", ["y": nil], refused: "y"),
        Case("eddsa", ["x": nil], refused: "x"),
        Case("eddsa", ["x": "AAAA"], refused: "x"),
        // Private members are refused whatever else is right, and whichever one is present.
        Case("rs256", ["d": "AQAB"], refused: "d"),
        Case("rs256", ["p": "AQAB"], refused: "p"),
        Case("rs256", ["qi": "AQAB"], refused: "qi"),
        Case("rs256", ["oth": "AQAB"], refused: "oth"),
        Case("es256", ["d": "AQAB"], refused: "d"),
        Case("eddsa", ["d": "AQAB"], refused: "d"),
        Case("rs256", ["k": "AQAB", "kty": "oct"], refused: "k"),
    ]

    @Test(arguments: cases)
    func memberRules(test: Case) throws {
        var members = try #require(Self.fixtures.keys[test.key])
        for (name, value) in test.changes {
            members.strings[name] = value
            members.names.removeAll { $0 == name }
            if value != nil { members.names.append(name) }
        }
        members.keyOps = test.keyOps
        do {
            let jwk = try JWK(members)
            #expect(test.refused == nil, "loaded")
            #expect(jwk.kid == members.strings["kid"])
            #expect(jwk.algorithm.rawValue == members.strings["alg"])
        } catch {
            #expect(error.member == test.refused, "\(error)")
            #expect("\(error)".hasPrefix(error.member + ": "))
        }
    }

    /// A private member counts even when its value is not a string (RSA's `oth` is an array).
    @Test func privateMembersAreFoundByName() throws {
        var members = try #require(Self.fixtures.keys["rs256"])
        members.names.append("oth")
        #expect(
            throws: JWKError(
                member: "oth", reason: "private key material has no place in a public key set (it has leaked)")
        ) {
            try JWK(members)
        }
    }
}
