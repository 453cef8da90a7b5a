internal import CZlib

/// A zlib deflate stream with gzip framing (RFC 1952), the engine of `Gzip.encode` and
/// `GzipStreamEncoder`.
///
/// Owns its `z_stream` on the heap: zlib keeps a pointer back to it, so it must never move.
final class Deflater {
    private let stream: UnsafeMutablePointer<z_stream>

    /// A stream at `level` (0...9), `windowBits` (9...15) and `memoryLevel` (1...9).
    init(level: Int, windowBits: Int, memoryLevel: Int) {
        precondition(Gzip.levels.contains(level), "gzip level \(level) is outside \(Gzip.levels)")
        precondition(
            Gzip.windowBits.contains(windowBits), "gzip windowBits \(windowBits) is outside \(Gzip.windowBits)")
        precondition(
            Gzip.memoryLevels.contains(memoryLevel), "gzip memoryLevel \(memoryLevel) is outside \(Gzip.memoryLevels)")
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // windowBits + 16: a gzip header and trailer instead of zlib's (zlib manual, deflateInit2).
        let status = recents_deflate_init(stream, Int32(level), Int32(windowBits + 16), Int32(memoryLevel))
        // Parameters are checked above, so only a failed allocation remains, which Swift treats as fatal too.
        precondition(status == Z_OK, "deflateInit2 failed (\(status)): out of memory")
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// The upper bound zlib gives for the coded size of `count` bytes in one `Z_FINISH` call.
    func bound(_ count: Int) -> Int { Int(deflateBound(stream, uLong(count))) }

    /// Compresses `input` and runs `flush` (`Z_SYNC_FLUSH`: everything so far is decodable, the
    /// stream goes on; `Z_FINISH`: the gzip trailer follows and the stream ends).
    func run(_ input: [UInt8], flush: Int32, expected: Int) -> [UInt8] {
        var output = OutputBuffer(limit: .max, expected: expected)
        input.withUnsafeBufferPointer { input in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = uInt(input.count)
            var status = Z_OK
            repeat {
                status = output.fill(from: stream) { deflate($0, flush) }
                // Z_BUF_ERROR only says "no progress possible", i.e. all is flushed already.
                precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, "deflate: \(status)")
                // Done when zlib left output room unused: it had nothing more to write.
            } while status == Z_OK && stream.pointee.avail_out == 0
            stream.pointee.next_in = nil
        }
        return output.take()
    }
}
