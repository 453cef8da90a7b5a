import RecentsCrypto
import Testing

@Suite struct SHA256Tests {
    /// FIPS 180-4 / NIST CAVP examples: empty, "abc", the two-block message, and a long input.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func knownVectors(input: String, hex: String) {
        #expect(SHA256.hex(Array(input.utf8)) == hex)
        #expect(SHA256.digest(input.utf8) == Hex.decode(hex))
    }

    @Test func nonContiguousInputHashesLikeItsArray() {
        let bytes = Array("abc".utf8)
        #expect(SHA256.hex(bytes.reversed().reversed()) == SHA256.hex(bytes))
        #expect(SHA256.hex(Array("xabcx".utf8)[1..<4]) == SHA256.hex(bytes))
    }

    @Test func hexRoundTripsAndRefusesNonHex() {
        let bytes: [UInt8] = [0x00, 0x0F, 0xA0, 0xFF]
        #expect(Hex.encode(bytes) == "000fa0ff")
        #expect(Hex.decode("000FA0ff") == bytes)
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }
}
