/// An encoder for one stream of chunks, each flushed so the peer can decode it on arrival.
///
/// `GzipStreamEncoder` and `BrotliStreamEncoder`; `StreamingSettings.makeEncoder(for:)` picks one
/// for a negotiated coding. Not thread-safe: each stream's writer owns its own.
public protocol StreamingEncoder: AnyObject {
    /// The coded bytes for `chunk`, flushed so everything given so far decodes from them.
    func encode(_ chunk: [UInt8]) -> [UInt8]
    /// The bytes that end the stream; call once, last.
    func finish() -> [UInt8]
}

/// A decoder for one coded stream whose bytes arrive in pieces.
///
/// `GzipStreamDecoder` and `BrotliStreamDecoder`; `ContentCoding.makeStreamDecoder()` picks one.
public protocol StreamingDecoder: AnyObject {
    /// What `chunk` adds to the content, at most `limit` bytes of it.
    /// - Throws: `DecompressionError` (`.tooLarge`, `.corrupt`).
    func decode(_ chunk: [UInt8], limit: Int) throws(DecompressionError) -> [UInt8]
    /// Checks that the coded stream is complete.
    /// - Throws: `DecompressionError.truncated` when it is not.
    func finish() throws(DecompressionError)
}
