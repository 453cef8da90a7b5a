import Testing

@testable import RecentsCompression

@Suite struct StreamingCoderTests {
    static let settings: [StreamingSettings] = [
        .lowMemory,
        StreamingSettings(gzipLevel: 1, gzipWindowBits: 9, gzipMemoryLevel: 1, brotliQuality: 0, brotliWindow: 10),
        StreamingSettings(gzipLevel: 9, gzipWindowBits: 15, gzipMemoryLevel: 9, brotliQuality: 11, brotliWindow: 24),
    ]

    /// Each flushed piece decodes to exactly its event, the moment it arrives.
    @Test(arguments: [ContentCoding.gzip, .br], settings)
    func eachChunkDecodesWholeOnArrival(coding: ContentCoding, settings: StreamingSettings) throws {
        let encoder = try #require(settings.makeEncoder(for: coding))
        let decoder = try #require(coding.makeStreamDecoder())
        for n in 0..<50 {
            let event = Samples.event(n)
            #expect(try decoder.decode(encoder.encode(event), limit: .max) == event)
        }
        #expect(try decoder.decode(encoder.finish(), limit: .max) == [])
        try decoder.finish()
    }

    @Test(arguments: [ContentCoding.gzip, .br])
    func laterEventsCostLessThanTheFirst(coding: ContentCoding) throws {
        // Brotli refers back across flushes only from quality 2 (lowMemory's quality 1 does not).
        let settings = StreamingSettings(
            gzipLevel: 6, gzipWindowBits: 11, gzipMemoryLevel: 3, brotliQuality: 5, brotliWindow: 14)
        let encoder = try #require(settings.makeEncoder(for: coding))
        let first = encoder.encode(Samples.event(0)).count
        let later = (1..<20).map { encoder.encode(Samples.event($0)).count }
        #expect(later.allSatisfy { $0 < first / 2 })
    }

    @Test(arguments: [ContentCoding.gzip, .br])
    func aStreamCutBeforeItsEndIsTruncated(coding: ContentCoding) throws {
        let encoder = try #require(StreamingSettings.lowMemory.makeEncoder(for: coding))
        let decoder = try #require(coding.makeStreamDecoder())
        _ = try decoder.decode(encoder.encode(Samples.event(0)), limit: .max)
        #expect(throws: DecompressionError.truncated) { try decoder.finish() }
    }

    @Test(arguments: [ContentCoding.gzip, .br])
    func piecesMaySplitAnywhere(coding: ContentCoding) throws {
        let encoder = try #require(StreamingSettings.lowMemory.makeEncoder(for: coding))
        let events = (0..<10).flatMap { Samples.event($0) }
        var coded = encoder.encode(events)
        coded += encoder.finish()
        let decoder = try #require(coding.makeStreamDecoder())
        var decoded: [UInt8] = []
        for byte in coded { decoded += try decoder.decode([byte], limit: .max) }
        try decoder.finish()
        #expect(decoded == events)
    }

    @Test(arguments: [ContentCoding.gzip, .br])
    func anErrorSticks(coding: ContentCoding) throws {
        let decoder = try #require(coding.makeStreamDecoder())
        #expect(throws: DecompressionError.corrupt) { try decoder.decode(Samples.noise(64), limit: .max) }
        #expect(throws: DecompressionError.corrupt) { try decoder.decode(coding.encode([1]), limit: .max) }
        #expect(throws: DecompressionError.corrupt) { try decoder.finish() }
    }

    @Test(arguments: [ContentCoding.gzip, .br])
    func theLimitAppliesToEachCall(coding: ContentCoding) throws {
        let encoder = try #require(StreamingSettings.lowMemory.makeEncoder(for: coding))
        let decoder = try #require(coding.makeStreamDecoder())
        let event = Samples.event(0)
        #expect(try decoder.decode(encoder.encode(event), limit: event.count) == event)
        #expect(throws: DecompressionError.tooLarge(limit: 100)) {
            try decoder.decode(encoder.encode(Samples.event(1)), limit: 100)
        }
    }
}
