import Testing

@testable import HTTPServer

/// A chunk goes out as its size line, the caller's bytes and a CRLF in one sendmsg; these pin the
/// size line and what is kept when the kernel takes only part of it.
struct ChunkFramingTests {
    @Test(arguments: [
        (0, "0"), (1, "1"), (9, "9"), (10, "a"), (15, "f"), (16, "10"), (300, "12c"), (65_536, "10000"),
        (Int.max, "7fffffffffffffff"),
    ])
    func theSizeLineIsLowerCaseHexThenCRLF(size: Int, hex: String) {
        let line = withChunkSizeLine(size) { Array($0) }
        #expect(line == Array((hex + "\r\n").utf8))
    }

    /// Wherever the kernel stopped, the kept entries are exactly the rest of the framed chunk.
    @Test func whatIsKeptAfterAPartialWriteIsTheRestOfTheChunk() {
        let body = Array("data: {\"version\":7}\n\n".utf8)
        let framed = withChunkSizeLine(body.count) { Array($0) } + body + [0x0D, 0x0A]
        for from in 0..<framed.count {
            let rest = withChunkSizeLine(body.count) { EventLoop.chunkRest(line: $0, body: body, from: from) }
            let bytes = rest.flatMap { $0.bytes[$0.offset...] }
            #expect(bytes == Array(framed[from...]), "from \(from)")
            // No entry is kept with nothing left to send: flush would spin on it.
            #expect(rest.allSatisfy { $0.offset < $0.bytes.count }, "from \(from)")
        }
    }
}
