import RecentsCrypto
import Testing

@Suite struct HMACSHA256Tests {
    struct Vector: Sendable, CustomStringConvertible {
        var name: String
        var key: [UInt8]
        var data: [UInt8]
        /// The expected code in hex; test case 5 gives only its first 128 bits.
        var mac: String
        var description: String { name }
    }

    /// RFC 4231 §4.2–§4.8, the HMAC-SHA-256 lines.
    static let rfc4231: [Vector] = [
        Vector(
            name: "4.2", key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8),
            mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Vector(
            name: "4.3", key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
            mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Vector(
            name: "4.4", key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50),
            mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Vector(
            name: "4.5", key: Array(1...25), data: [UInt8](repeating: 0xcd, count: 50),
            mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Vector(
            name: "4.6 (truncated to 128 bits)", key: [UInt8](repeating: 0x0c, count: 20),
            data: Array("Test With Truncation".utf8), mac: "a3b6167473100ee06e0c796c2955552b"),
        Vector(
            name: "4.7", key: [UInt8](repeating: 0xaa, count: 131),
            data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Vector(
            name: "4.8", key: [UInt8](repeating: 0xaa, count: 131),
            data: Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. "
                    + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
            mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test(arguments: rfc4231)
    func rfc4231Vectors(vector: Vector) throws {
        let code = HMACSHA256.authenticationCode(key: vector.key, message: vector.data)
        #expect(code.count == HMACSHA256.byteCount)
        #expect(Hex.encode(code).hasPrefix(vector.mac))
        if vector.mac.count == 64 {
            #expect(HMACSHA256.isValid(try #require(Hex.decode(vector.mac)), key: vector.key, message: vector.data))
        }
    }

    @Test func isValidRefusesAnyChangedByteAndAnyOtherLength() {
        let key = [UInt8](repeating: 0x0b, count: 20)
        let message = Array("Hi There".utf8)
        let code = HMACSHA256.authenticationCode(key: key, message: message)
        #expect(HMACSHA256.isValid(code, key: key, message: message))
        for index in code.indices {
            var tampered = code
            tampered[index] ^= 0x01
            #expect(!HMACSHA256.isValid(tampered, key: key, message: message), "byte \(index)")
        }
        #expect(!HMACSHA256.isValid(code.dropLast(), key: key, message: message))
        #expect(!HMACSHA256.isValid(code + [0], key: key, message: message))
        #expect(!HMACSHA256.isValid([], key: key, message: message))
        // Not `key + [0]`: HMAC zero-pads short keys, so a trailing zero byte names the same key.
        #expect(!HMACSHA256.isValid(code, key: key + [1], message: message))
        #expect(!HMACSHA256.isValid(code, key: key, message: message + [0]))
    }

    @Test func emptyKeyAndMessageWork() {
        // RFC 2104 allows an empty key; the value is what every HMAC-SHA256 implementation gives.
        #expect(
            Hex.encode(HMACSHA256.authenticationCode(key: [], message: []))
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}

@Suite struct HMACSHA256KeyTests {
    @Test(arguments: HMACSHA256Tests.rfc4231)
    func aPreparedKeyGivesTheOneShotCodes(vector: HMACSHA256Tests.Vector) throws {
        let key = try HMACSHA256Key(vector.key)
        // Twice: the second use re-initialises a pooled context, which must keep the key.
        for _ in 0..<2 {
            let code = key.authenticationCode(vector.data)
            #expect(Hex.encode(code).hasPrefix(vector.mac))
            #expect(key.isValid(HMACSHA256.authenticationCode(key: vector.key, message: vector.data), for: vector.data))
        }
        #expect(!key.isValid([UInt8](repeating: 0, count: 32), for: vector.data))
        #expect(!key.isValid(key.authenticationCode(vector.data).dropLast(), for: vector.data))
    }

    @Test func anEmptyKeyIsRefused() {
        #expect(throws: CryptoError.self) { try HMACSHA256Key([]) }
    }

    /// Concurrent callers each borrow their own context; a shared one would mix their messages.
    @Test func concurrentCallersGetTheirOwnCodes() async throws {
        let keyBytes = Array("a key shared by every task here, 32+ bytes".utf8)
        let key = try HMACSHA256Key(keyBytes)
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<200 {
                        let message = Array("task \(task) round \(round)".utf8)
                        if key.authenticationCode(message)
                            != HMACSHA256.authenticationCode(key: keyBytes, message: message)
                        {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
