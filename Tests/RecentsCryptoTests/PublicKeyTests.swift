import RecentsCrypto
import Testing

@Suite struct PublicKeyTests {
    static let fixtures = JWTFixtures.shared

    /// A fixture key's member, decoded.
    static func member(_ key: String, _ name: String) throws -> [UInt8] {
        let text = try #require(fixtures.keys[key]?.strings[name])
        return try #require(Base64URL.decode(Array(text.utf8)))
    }

    /// The fixture's valid token for `alg`: its key's name, signing input and signature.
    static func token(_ alg: SignatureAlgorithm) throws -> (key: String, message: [UInt8], signature: [UInt8]) {
        let entry = try #require(fixtures.signatures.first { $0.alg == alg.rawValue && $0.valid })
        return (entry.key, Array(entry.message.utf8), try #require(Base64URL.decode(Array(entry.signature.utf8))))
    }

    static func refusal(_ make: () throws(JWKError) -> PublicKey) -> String? {
        do {
            _ = try make()
            return nil
        } catch {
            return error.member
        }
    }

    @Test func eachKindAllowsOnlyItsAlgorithms() throws {
        let rsa = try PublicKey(rsaModulus: Self.member("rs256", "n"), exponent: Self.member("rs256", "e"))
        let p256 = try PublicKey(p256X: Self.member("es256", "x"), y: Self.member("es256", "y"))
        let ed25519 = try PublicKey(ed25519: Self.member("eddsa", "x"))
        #expect(rsa.kind == .rsa(bits: 2048))
        #expect(p256.kind == .p256)
        #expect(ed25519.kind == .ed25519)
        #expect(SignatureAlgorithm.allCases.filter(rsa.allows) == [.rs256, .ps256])
        #expect(SignatureAlgorithm.allCases.filter(p256.allows) == [.es256])
        #expect(SignatureAlgorithm.allCases.filter(ed25519.allows) == [.edDSA])
    }

    // MARK: - RSA

    @Test func rsaModulusRules() throws {
        let n = try Self.member("rs256", "n")
        let e = try Self.member("rs256", "e")
        // Leading zero octets are skipped, and the key still verifies.
        let padded = try PublicKey(rsaModulus: [0, 0] + n, exponent: [0] + e)
        #expect(padded.kind == .rsa(bits: 2048))
        let token = try Self.token(.rs256)
        #expect(token.key == "rs256")
        #expect(padded.verify(signature: token.signature, message: token.message, algorithm: .rs256))

        #expect(Self.refusal { () throws(JWKError) in try PublicKey(rsaModulus: [], exponent: e) } == "n")
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(rsaModulus: [0, 0], exponent: e) } == "n")
        #expect(
            Self.refusal { () throws(JWKError) in try PublicKey(rsaModulus: Array(n.dropFirst()), exponent: e) } == "n")
        var even = n
        even[even.count - 1] &= 0xFE
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(rsaModulus: even, exponent: e) } == "n")
        let tooLong = [0x01] + [UInt8](repeating: 0xFF, count: PublicKey.maximumRSABits / 8)
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(rsaModulus: tooLong, exponent: e) } == "n")
        let longest = [UInt8](repeating: 0xFF, count: PublicKey.maximumRSABits / 8)
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(rsaModulus: longest, exponent: e) } == nil)
    }

    @Test(arguments: [
        [UInt8](), [0], [1], [0, 0, 1], [2], [0x01, 0x00, 0x00], [0x01, 0, 0, 0, 0, 0, 0, 0, 0x01],
    ])
    func rsaRefusesEvenOneOrOverlongExponents(exponent: [UInt8]) throws {
        let n = try Self.member("rs256", "n")
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(rsaModulus: n, exponent: exponent) } == "e")
    }

    @Test(arguments: [[3], [0x01, 0x00, 0x01], [UInt8](repeating: 0xFF, count: 8)])
    func rsaAcceptsOddExponentsUpTo64Bits(exponent: [UInt8]) throws {
        let n = try Self.member("rs256", "n")
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(rsaModulus: n, exponent: exponent) } == nil)
    }

    // MARK: - P-256

    @Test func p256CoordinatesAre32Bytes() throws {
        let x = try Self.member("es256", "x")
        let y = try Self.member("es256", "y")
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(p256X: Array(x.dropFirst()), y: y) } == "x")
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(p256X: [0] + x, y: y) } == "x")
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(p256X: x, y: [0] + y) } == "y")
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(p256X: x, y: []) } == "y")
    }

    /// (5, y5) is on P-256 (5 is its smallest x; `cryptography` accepts the point too).
    static let y5 = Hex.decode("459243b9aa581806fe913bce99817ade11ca503c64d9a3c533415c083248fbcc") ?? []

    @Test func p256RefusesPointsOffTheCurve() throws {
        let five = [UInt8](repeating: 0, count: 31) + [5]
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(p256X: five, y: Self.y5) } == nil)
        var other = Self.y5
        other[31] ^= 0x01
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(p256X: five, y: other) } == "y")
        let zero = [UInt8](repeating: 0, count: 32)
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(p256X: zero, y: zero) } == "y")
    }

    /// x + p names the same field element as x, but SEC 1 and SP 800-56A require coordinates
    /// below p: one key, one spelling.
    @Test func p256RefusesCoordinatesNotReducedModuloP() throws {
        let fivePlusP = try #require(Hex.decode("ffffffff00000001000000000000000000000001000000000000000000000004"))
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(p256X: fivePlusP, y: Self.y5) } == "y")
    }

    // MARK: - Ed25519

    @Test func ed25519KeysAre32Bytes() throws {
        let x = try Self.member("eddsa", "x")
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(ed25519: Array(x.dropLast())) } == "x")
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(ed25519: x + [0]) } == "x")
        #expect(Self.refusal { () throws(JWKError) in try PublicKey(ed25519: []) } == "x")
    }

    // MARK: - Any input

    /// Every key under every algorithm, with empty, wrong-length, extreme and huge inputs:
    /// false each time, never a crash.
    @Test(arguments: SignatureAlgorithm.allCases)
    func hostileInputsAreRefusedWithoutCrashing(algorithm: SignatureAlgorithm) throws {
        let token = try Self.token(algorithm)
        let key = try JWK(try #require(Self.fixtures.keys[token.key])).key
        let huge = [UInt8](repeating: 0xA5, count: 16 << 20)
        let signatures: [[UInt8]] = [
            [], [0], [UInt8](repeating: 0, count: token.signature.count),
            [UInt8](repeating: 0xFF, count: token.signature.count), token.signature + [0],
            Array(token.signature.dropLast()), [UInt8](repeating: 0x30, count: 72), Array(huge.prefix(1 << 20)),
        ]
        for signature in signatures {
            for message in [[], token.message, huge] {
                #expect(!key.verify(signature: signature, message: message, algorithm: algorithm))
            }
        }
        #expect(!key.verify(signature: token.signature, message: huge, algorithm: algorithm))
        #expect(!key.verify(signature: token.signature, message: [], algorithm: algorithm))
        #expect(key.verify(signature: token.signature, message: token.message, algorithm: algorithm))
    }

    /// ES256 with r or s zero, or not below the group order, fails (libcrypto checks the range).
    @Test func es256OutOfRangeComponentsFail() throws {
        let token = try Self.token(.es256)
        let key = try JWK(try #require(Self.fixtures.keys[token.key])).key
        let r = Array(token.signature.prefix(32))
        let s = Array(token.signature.suffix(32))
        let zero = [UInt8](repeating: 0, count: 32)
        let order = try #require(Hex.decode("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"))
        for signature in [zero + s, r + zero, order + s, r + order] {
            #expect(!key.verify(signature: signature, message: token.message, algorithm: .es256))
        }
    }

    /// One key, many threads at once: every verification gives the same answer.
    @Test(arguments: SignatureAlgorithm.allCases)
    func concurrentVerificationsShareOneKey(algorithm: SignatureAlgorithm) async throws {
        let token = try Self.token(algorithm)
        let key = try JWK(try #require(Self.fixtures.keys[token.key])).key
        let results = await withTaskGroup(of: (Int, Int).self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var good = 0
                    var bad = 0
                    for round in 0..<50 {
                        var message = token.message
                        if round % 2 == 1 { message[0] ^= 1 }
                        if key.verify(signature: token.signature, message: message, algorithm: algorithm) {
                            good += 1
                        } else {
                            bad += 1
                        }
                    }
                    return (good, bad)
                }
            }
            return await group.reduce(into: [(Int, Int)]()) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == (25, 25) })
    }
}
