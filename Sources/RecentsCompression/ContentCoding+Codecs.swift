extension ContentCoding {
    /// A decoder for a stream in this coding, or nil for `identity` (its bytes are the content).
    public func makeStreamDecoder() -> (any StreamingDecoder)? {
        switch self {
        case .identity: nil
        case .gzip: GzipStreamDecoder()
        case .br: BrotliStreamDecoder()
        }
    }

    /// `bytes` coded whole with the strongest settings worth their time on content sent many
    /// times (gzip level 9, br quality 11): build-time files and the view cache's copies.
    public func encode(_ bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .identity: bytes
        case .gzip: Gzip.encode(bytes, level: 9)
        case .br: Brotli.encode(bytes, quality: 11)
        }
    }

    /// The content `bytes` decode to, at most `limit` bytes (`identity`: `bytes` itself, checked
    /// against the limit too).
    /// - Throws: `DecompressionError`, see `Gzip.decode` and `Brotli.decode`.
    public func decode(_ bytes: [UInt8], limit: Int) throws(DecompressionError) -> [UInt8] {
        switch self {
        case .identity:
            guard bytes.count <= limit else { throw .tooLarge(limit: limit) }
            return bytes
        case .gzip: return try Gzip.decode(bytes, limit: limit)
        case .br: return try Brotli.decode(bytes, limit: limit)
        }
    }
}
