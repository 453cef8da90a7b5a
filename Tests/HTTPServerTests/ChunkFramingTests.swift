import Testing

@testable import HTTPServer

/// A chunk goes out as its size line, the caller's bytes and a CRLF in one sendmsg; this pins the
/// size line. What is kept when the kernel takes only part of a chunk is StreamTests' blocked
/// writer (a 4 KiB send buffer, chunks up to 24,000 bytes, every one compared).
struct ChunkFramingTests {
    @Test(arguments: [
        (0, "0"), (1, "1"), (9, "9"), (10, "a"), (15, "f"), (16, "10"), (300, "12c"), (65_536, "10000"),
        (Int.max, "7fffffffffffffff"),
    ])
    func theSizeLineIsLowerCaseHexThenCRLF(size: Int, hex: String) {
        let line = withChunkSizeLine(size) { Array($0) }
        #expect(line == Array((hex + "\r\n").utf8))
    }
}
