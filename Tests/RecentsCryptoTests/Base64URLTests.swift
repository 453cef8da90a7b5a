import RecentsCrypto
import Testing

@Suite struct Base64URLTests {
    /// RFC 4648 §10's vectors, unpadded.
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(Array(encoded.utf8)) == Array(plain.utf8))
    }

    @Test func usesTheURLSafeAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.decode(Array("-_-_".utf8)) == [0xFB, 0xFF, 0xBF])
    }

    @Test(arguments: [
        "Zg==", "Zm8=", "Zg=", "+/+/", "ab/c", "a+bc", "Zm9v ", " Zm9v", "Zm9v\n", "Zm\u{00E9}v", "Z", "Zm9vY",
        "Zm9v.",
    ])
    func refusesAnythingButCanonicalUnpaddedBase64URL(text: String) {
        #expect(Base64URL.decode(Array(text.utf8)) == nil)
    }

    /// "Zh" and "Zg" both have "f" in their first 8 bits; only the one with zero spare bits is canonical.
    @Test func refusesNonZeroSpareBits() {
        #expect(Base64URL.decode(Array("Zh".utf8)) == nil)
        #expect(Base64URL.decode(Array("Zm9".utf8)) == nil)
        #expect(Base64URL.decode(Array("Zm8".utf8)) == Array("fo".utf8))
    }

    @Test func roundTripsEveryByteAndLength() {
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        for length in 0...bytes.count {
            let slice = Array(bytes.prefix(length))
            #expect(Base64URL.decode(Array(Base64URL.encode(slice).utf8)) == slice)
        }
    }
}
