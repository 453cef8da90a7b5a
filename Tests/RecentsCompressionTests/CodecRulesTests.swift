import Testing

@testable import RecentsCompression

/// What gzip and br must both do with bytes that are cut short or decode past the limit: one
/// test a rule, run on each coding with the same content.
@Suite struct CodecRulesTests {
    /// A coding's one-shot encoder at its default settings, and its decoder.
    struct Codec: Sendable, CustomTestStringConvertible {
        let name: String
        let encode: @Sendable ([UInt8]) -> [UInt8]
        let decode: @Sendable ([UInt8], Int) throws -> [UInt8]
        var testDescription: String { name }

        static let gzip = Codec(name: "gzip", encode: { Gzip.encode($0) }, decode: { try Gzip.decode($0, limit: $1) })
        static let brotli = Codec(
            name: "br", encode: { Brotli.encode($0) }, decode: { try Brotli.decode($0, limit: $1) })
    }

    @Test(arguments: [Codec.gzip, Codec.brotli])
    func shortBytesAreTruncated(codec: Codec) {
        let coded = codec.encode(Samples.text(5000))
        #expect(throws: DecompressionError.truncated) { try codec.decode(Array(coded.dropLast()), 5000) }
        #expect(throws: DecompressionError.truncated) { try codec.decode(Array(coded.prefix(5)), 5000) }
        #expect(throws: DecompressionError.truncated) { try codec.decode([], 5000) }
    }

    @Test(arguments: [Codec.gzip, Codec.brotli])
    func theLimitIsInclusive(codec: Codec) throws {
        let content = Samples.text(4096)
        let coded = codec.encode(content)
        #expect(try codec.decode(coded, 4096) == content)
        #expect(throws: DecompressionError.tooLarge(limit: 4095)) { try codec.decode(coded, 4095) }
        #expect(throws: DecompressionError.tooLarge(limit: 0)) { try codec.decode(coded, 0) }
    }
}
