import Testing

@testable import RecentsCompression

@Suite struct BrotliTests {
    @Test(arguments: [0, 1, 100, 70_000, 300_000])
    func roundTripsAtSeveralQualitiesAndWindows(size: Int) throws {
        let content = Samples.text(size)
        for (quality, window) in [(0, 10), (4, 16), (11, 22), (11, 24)] {
            let coded = Brotli.encode(content, quality: quality, window: window)
            #expect(try Brotli.decode(coded, limit: size) == content)
        }
    }

    @Test func qualityElevenBeatsGzipNineOnJSON() {
        let content = Samples.text(100_000)
        #expect(Brotli.encode(content).count < Gzip.encode(content, level: 9).count)
    }

    @Test func incompressibleBytesRoundTrip() throws {
        let noise = Samples.noise(200_000)
        #expect(try Brotli.decode(Brotli.encode(noise, quality: 5), limit: noise.count) == noise)
    }

    @Test func badBytesAreCorrupt() {
        #expect(throws: DecompressionError.corrupt) { try Brotli.decode(Samples.noise(100), limit: 1000) }
        #expect(throws: DecompressionError.corrupt) { try Brotli.decode(Brotli.encode([1, 2, 3]) + [0], limit: 100) }
    }

    // Truncation and the limit: CodecRulesTests, for br and gzip alike.
}
