import Testing

@testable import RecentsCompression

@Suite struct ContentEncodingsTests {
    @Test(
        arguments: [
            (nil, []), ("", []), (" , ", []), ("gzip", [.gzip]), ("GZIP", [.gzip]), ("x-gzip", [.gzip]), ("br", [.br]),
            ("identity", []), ("gzip, br", [.gzip, .br]), (" br ,, gzip\t", [.br, .gzip]), ("identity, gzip", [.gzip]),
        ] as [(String?, [ContentCoding])])
    func parsesTheCodingsInTheOrderApplied(field: String?, codings: [ContentCoding]) throws {
        #expect(try ContentEncodings(parsing: field).codings == codings)
    }

    @Test(arguments: [
        ("x-unknown", "x-unknown"), ("gzip, deflate", "deflate"), ("zstd", "zstd"), ("gzip;q=1", "gzip;q=1"),
        ("br, compress, zz", "compress"),
    ])
    func anUnknownCodingIsNamed(field: String, name: String) {
        #expect(throws: ContentEncodingError.unsupported(name)) { try ContentEncodings(parsing: field) }
        #expect(ContentEncodingError.unsupported(name).description == "the content coding '\(name)' is not supported")
    }

    @Test func deepStacksAreRefused() {
        #expect(throws: ContentEncodingError.tooManyCodings(3)) { try ContentEncodings(parsing: "gzip, br, gzip") }
    }

    @Test func stackedCodingsAreUndoneLastAppliedFirst() throws {
        let content = Samples.text(20_000)
        let wire = Brotli.encode(Gzip.encode(content))
        #expect(try ContentEncodings(parsing: "gzip, br").decode(wire, limit: content.count) == content)
        #expect(throws: DecompressionError.self) {
            try ContentEncodings(parsing: "br, gzip").decode(wire, limit: 1 << 20)
        }
        #expect(try ContentEncodings(parsing: nil).decode(content, limit: content.count) == content)
    }

    @Test func accepted() {
        #expect(ContentEncodings.accepted == "gzip, br")
    }
}
