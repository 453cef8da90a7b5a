import Testing

@testable import RecentsCompression

@Suite struct ContentCodingTests {
    @Test(arguments: [
        ("gzip", ContentCoding.gzip), ("GZIP", .gzip), ("x-gzip", .gzip), ("X-GZip", .gzip), ("br", .br), ("BR", .br),
        ("identity", .identity), ("Identity", .identity),
    ])
    func namesAreCaseInsensitive(name: String, coding: ContentCoding) {
        #expect(ContentCoding(name) == coding)
    }

    @Test(arguments: ["deflate", "zstd", "compress", "gzi", "gzipp", "x-br", "", " gzip", "*"])
    func otherNamesAreUnknown(name: String) {
        #expect(ContentCoding(name) == nil)
    }

    @Test func eachNameParsesBackToItsCoding() {
        for coding in ContentCoding.allCases { #expect(ContentCoding(coding.name) == coding) }
        #expect(ContentCoding.allCases.map(\.name) == ["identity", "gzip", "br"])
    }

    @Test func encodeAndDecodeRoundTripForEveryCoding() throws {
        let content = Samples.text(50_000)
        for coding in ContentCoding.allCases {
            let coded = coding.encode(content)
            if coding != .identity { #expect(coded.count < content.count / 4) }
            #expect(try coding.decode(coded, limit: content.count) == content)
        }
        #expect(throws: DecompressionError.tooLarge(limit: 10)) {
            try ContentCoding.identity.decode(Array(repeating: 1, count: 11), limit: 10)
        }
    }
}
