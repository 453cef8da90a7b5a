internal import CBrotliEncoder

/// One-shot Brotli (RFC 7932) over libbrotli, for content held whole: a cached view's compressed
/// copy, an embedded file, a request body.
public enum Brotli {
    /// Qualities libbrotli takes: 0 fastest, 11 smallest (and slowest by far).
    public static let qualities = 0...11
    /// Window sizes (log2 of bytes) of the standard format: 1 KiB to 16 MiB.
    public static let windows = 10...24
    /// libbrotli's own default window, 4 MiB (larger than any answer here, so no loss).
    public static let defaultWindow = 22

    /// `bytes` coded at `quality` with a window of `2^window` bytes (checked against the ranges).
    public static func encode(_ bytes: [UInt8], quality: Int = 11, window: Int = defaultWindow) -> [UInt8] {
        precondition(qualities.contains(quality), "brotli quality \(quality) is outside \(qualities)")
        precondition(windows.contains(window), "brotli window \(window) is outside \(windows)")
        // Zero for inputs too large to bound; a few bytes suffice for an empty input.
        let bound = BrotliEncoderMaxCompressedSize(bytes.count)
        precondition(bound > 0 || bytes.count < 16, "brotli: input too large")
        var size = max(bound, 16)
        var output = [UInt8](repeating: 0, count: size)
        let ok = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { coded in
                BrotliEncoderCompress(
                    Int32(quality), Int32(window), BROTLI_MODE_GENERIC, input.count, input.baseAddress, &size,
                    coded.baseAddress)
            }
        }
        // With room for the bound and valid parameters, only a failed allocation remains.
        precondition(ok == BROTLI_TRUE, "BrotliEncoderCompress failed: out of memory")
        output.removeSubrange(size...)
        return output
    }

    /// The content `bytes` decode to, refused once it would pass `limit` bytes.
    ///
    /// Output and work stay proportional to `limit`; libbrotli's own window buffer is sized from
    /// the stream's header (at most 16 MiB, as large windows are not enabled).
    /// - Throws: `DecompressionError.tooLarge`, `.corrupt` (not Brotli, or bytes after its end)
    ///   or `.truncated` (the input stops inside the stream, or is empty).
    public static func decode(_ bytes: [UInt8], limit: Int) throws(DecompressionError) -> [UInt8] {
        let decoder = BrotliStreamDecoder()
        let content = try decoder.decode(bytes, limit: limit)
        try decoder.finish()
        return content
    }
}
