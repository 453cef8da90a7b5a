internal import CZlib

/// gzip for one long-lived stream (an event stream's answer): each `encode` returns bytes that,
/// with everything before them, inflate to every chunk given so far.
///
/// Each call ends with zlib's `Z_SYNC_FLUSH`, so the client can inflate an event whole the moment
/// its bytes arrive, while the window (`windowBits`) still lets later events refer to earlier
/// ones: that shared history is where a stream of similar events saves most. Memory is zlib's
/// state, about `2^(windowBits+2) + 2^(memoryLevel+9)` bytes, held until the encoder is released.
/// Not thread-safe: one owner (the stream's writer) calls it.
public final class GzipStreamEncoder: StreamingEncoder {
    private let deflater: Deflater
    private var finished = false

    /// A stream at `level`, `windowBits` and `memoryLevel` (see `Gzip` for the ranges).
    public init(level: Int = Gzip.defaultLevel, windowBits: Int = 15, memoryLevel: Int = 8) {
        deflater = Deflater(level: level, windowBits: windowBits, memoryLevel: memoryLevel)
    }

    /// The coded bytes for `chunk`, flushed: the first call's output starts with the gzip header.
    public func encode(_ chunk: [UInt8]) -> [UInt8] {
        precondition(!finished, "encode after finish")
        return deflater.run(chunk, flush: Z_SYNC_FLUSH, expected: chunk.count / 2 + 64)
    }

    /// The gzip trailer (CRC and length) that ends the stream; call once, at the end.
    public func finish() -> [UInt8] {
        precondition(!finished, "finish called twice")
        finished = true
        return deflater.run([], flush: Z_FINISH, expected: 64)
    }
}
