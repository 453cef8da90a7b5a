internal import CBrotliEncoder

/// Brotli for one long-lived stream (an event stream's answer): each `encode` returns bytes that,
/// with everything before them, decode to every chunk given so far.
///
/// Each call ends with `BROTLI_OPERATION_FLUSH`, so the client decodes an event whole on arrival,
/// while the window (`2^window` bytes) lets later events refer to earlier ones. Memory grows with
/// quality and window (270+ KiB from quality 2, Benchmarks/COMPRESSION.md); it is held until the encoder is
/// released. Not thread-safe: one owner (the stream's writer) calls it.
public final class BrotliStreamEncoder: StreamingEncoder {
    private let state: OpaquePointer
    private var finished = false

    /// A stream at `quality` (0...11) with a window of `2^window` bytes (10...24).
    public init(quality: Int, window: Int) {
        precondition(Brotli.qualities.contains(quality), "brotli quality \(quality) is outside \(Brotli.qualities)")
        precondition(Brotli.windows.contains(window), "brotli window \(window) is outside \(Brotli.windows)")
        guard let state = BrotliEncoderCreateInstance(nil, nil, nil) else {
            preconditionFailure("BrotliEncoderCreateInstance failed: out of memory")
        }
        self.state = state
        BrotliEncoderSetParameter(state, BROTLI_PARAM_QUALITY, UInt32(quality))
        BrotliEncoderSetParameter(state, BROTLI_PARAM_LGWIN, UInt32(window))
    }

    deinit { BrotliEncoderDestroyInstance(state) }

    /// The coded bytes for `chunk`, flushed.
    public func encode(_ chunk: [UInt8]) -> [UInt8] {
        precondition(!finished, "encode after finish")
        return run(chunk, BROTLI_OPERATION_FLUSH)
    }

    /// The bytes that end the stream (the last meta-block); call once, at the end.
    public func finish() -> [UInt8] {
        precondition(!finished, "finish called twice")
        finished = true
        return run([], BROTLI_OPERATION_FINISH)
    }

    /// Codes `input` and runs `operation` (flush or finish) until all its output is out.
    private func run(_ input: [UInt8], _ operation: BrotliEncoderOperation) -> [UInt8] {
        var output = OutputBuffer(limit: .max, expected: input.count / 2 + 64)
        input.withUnsafeBufferPointer { input in
            var nextIn = input.baseAddress
            var availableIn = input.count
            var ok = BROTLI_FALSE
            // Done when all input is taken, the encoder holds nothing more, and a finish has finished.
            repeat {
                output.fill { pointer, room in
                    var nextOut: UnsafeMutablePointer<UInt8>? = pointer
                    var availableOut = room
                    ok = BrotliEncoderCompressStream(
                        state, operation, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    return room - availableOut
                }
                precondition(ok == BROTLI_TRUE, "BrotliEncoderCompressStream failed")
            } while availableIn > 0 || BrotliEncoderHasMoreOutput(state) == BROTLI_TRUE
                || (operation == BROTLI_OPERATION_FINISH && BrotliEncoderIsFinished(state) != BROTLI_TRUE)
        }
        return output.take()
    }
}
