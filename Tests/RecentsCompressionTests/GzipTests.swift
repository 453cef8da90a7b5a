import Testing

@testable import RecentsCompression

@Suite struct GzipTests {
    @Test(arguments: [0, 1, 100, 70_000, 300_000])
    func roundTripsAtEveryLevel(size: Int) throws {
        let content = Samples.text(size)
        for level in [0, 1, 6, 9] {
            #expect(try Gzip.decode(Gzip.encode(content, level: level), limit: size) == content)
        }
    }

    @Test func incompressibleBytesRoundTrip() throws {
        let noise = Samples.noise(200_000)
        #expect(try Gzip.decode(Gzip.encode(noise), limit: noise.count) == noise)
    }

    @Test func outputIsRealGzipFraming() throws {
        let coded = Gzip.encode(Samples.text(1000))
        // RFC 1952 §2.3.1: ID1 ID2 CM=8 (deflate).
        #expect(Array(coded.prefix(3)) == [0x1f, 0x8b, 0x08])
    }

    @Test func gzipCommandReadsWhatWeWriteAndWeReadWhatItWrites() throws {
        let content = Samples.text(100_000)
        let inflated = try #require(Samples.run("gzip -dc", input: Gzip.encode(content, level: 9)))
        #expect(inflated == content)
        let theirs = try #require(Samples.run("gzip -c -9", input: content))
        #expect(try Gzip.decode(theirs, limit: content.count) == content)
    }

    @Test func concatenatedMembersAreOneContent() throws {
        let first = Samples.text(3000)
        let second = Samples.noise(500)
        let coded = Gzip.encode(first) + Gzip.encode(second)
        #expect(try Gzip.decode(coded, limit: 3500) == first + second)
    }

    @Test func badBytesAreCorrupt() {
        #expect(throws: DecompressionError.corrupt) { try Gzip.decode(Samples.noise(100), limit: 1000) }
        // A zlib stream (RFC 1950) is not gzip.
        #expect(throws: DecompressionError.corrupt) { try Gzip.decode([0x78, 0x9c, 0x03, 0x00], limit: 1000) }
        var coded = Gzip.encode(Samples.text(5000))
        coded[coded.count - 6] ^= 0xff  // inside the CRC-32 of the trailer
        #expect(throws: DecompressionError.corrupt) { try Gzip.decode(coded, limit: 5000) }
        #expect(throws: DecompressionError.corrupt) { try Gzip.decode(Gzip.encode([1, 2, 3]) + [0, 0], limit: 100) }
    }

    // Truncation and the limit: CodecRulesTests, for gzip and br alike.
}
