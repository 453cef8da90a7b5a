internal import CBrotliDecoder

/// Decodes a Brotli stream piece by piece as its bytes arrive (a client reading an event stream,
/// or a request body handed over whole by `Brotli.decode`).
///
/// Not thread-safe: one owner calls it.
public final class BrotliStreamDecoder: StreamingDecoder {
    private let state: OpaquePointer
    private var ended = false
    private var failure: DecompressionError?

    /// A decoder waiting for the first byte of a Brotli stream.
    public init() {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else {
            preconditionFailure("BrotliDecoderCreateInstance failed: out of memory")
        }
        self.state = state
    }

    deinit { BrotliDecoderDestroyInstance(state) }

    /// What `chunk` adds to the content, at most `limit` bytes of it for this call.
    /// - Throws: `DecompressionError.tooLarge` past `limit`, `.corrupt` for bytes that are not
    ///   Brotli or that follow its end; after an error every call throws it again.
    public func decode(_ chunk: [UInt8], limit: Int = .max) throws(DecompressionError) -> [UInt8] {
        if let failure { throw failure }
        if ended {
            guard chunk.isEmpty else { return try fail(.corrupt) }
            return []
        }
        var output = OutputBuffer(limit: limit, expected: min(chunk.count, OutputBuffer.step / 8) * 8)
        let problem = chunk.withUnsafeBufferPointer { input -> DecompressionError? in
            var nextIn = input.baseAddress
            var availableIn = input.count
            while true {
                var result = BROTLI_DECODER_RESULT_ERROR
                output.fill { pointer, room in
                    var nextOut: UnsafeMutablePointer<UInt8>? = pointer
                    var availableOut = room
                    result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    return room - availableOut
                }
                if output.isOverLimit { return .tooLarge(limit: output.limit) }
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS:
                    ended = true
                    // A Brotli stream has one end; bytes after it are not part of the content.
                    return availableIn > 0 ? .corrupt : nil
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
                    // The input is used up, but decoded bytes may still wait for output room
                    // (decode.h: check BrotliDecoderHasMoreOutput); an event must come out whole.
                    if BrotliDecoderHasMoreOutput(state) == BROTLI_TRUE { continue }
                    return nil
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
                    continue
                default:
                    return .corrupt
                }
            }
        }
        if let problem { return try fail(problem) }
        return output.take()
    }

    /// Checks that the stream ended where its bytes did.
    /// - Throws: `DecompressionError.truncated` when it did not (or never began).
    public func finish() throws(DecompressionError) {
        if let failure { throw failure }
        guard ended else { throw .truncated }
    }

    /// Records `error` as the stream's end and throws it.
    private func fail(_ error: DecompressionError) throws(DecompressionError) -> [UInt8] {
        failure = error
        throw error
    }
}
