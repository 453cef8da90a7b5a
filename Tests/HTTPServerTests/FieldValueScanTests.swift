import Testing

@testable import HTTPServer

/// The word-at-a-time scan of a field value must say exactly what a byte-by-byte look says, for
/// every byte value at every position of values short and long (a word, a tail, both).
@Suite struct FieldValueScanTests {
    /// The plain definition: a CTL other than HTAB, or DEL; and any byte of 0x80 or above.
    private func naive(_ bytes: [UInt8]) -> (control: Bool, highBit: Bool) {
        var highBit = false
        for c in bytes {
            if (c < 0x20 && c != 0x09) || c == 0x7F { return (true, highBit) }
            if c >= 0x80 { highBit = true }
        }
        return (false, highBit)
    }

    private func scanned(_ bytes: [UInt8]) -> (control: Bool, highBit: Bool) {
        bytes.withUnsafeBufferPointer { RequestParser.scanFieldValue($0) }
    }

    @Test(arguments: [UInt8(ascii: "a"), 0x09, 0x20, 0x7E, 0xC3])
    func everyByteAtEveryPositionIsJudgedAsOneByOne(background: UInt8) {
        for length in 1...19 {
            for position in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    var value = [UInt8](repeating: background, count: length)
                    value[position] = byte
                    let want = naive(value)
                    let got = scanned(value)
                    guard got.control == want.control, got.control || got.highBit == want.highBit else {
                        Issue.record("byte \(byte) at \(position) of \(length) on \(background): \(got) != \(want)")
                        return
                    }
                }
            }
        }
    }

    @Test func aTypicalTokenPassesAndAnEmptyValueToo() {
        let token = Array("Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ".utf8)
        #expect(scanned(token) == (false, false))
        #expect(scanned([]) == (false, false))
        #expect(scanned(Array("Chloé; x=1".utf8)) == (false, true))
        #expect(scanned(Array("abcdefgh\u{7F}".utf8)) == (true, false))
    }
}
