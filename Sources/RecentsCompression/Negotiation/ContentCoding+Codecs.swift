extension ContentCoding {
    /// A decoder for a stream in this coding, or nil for `identity` (its bytes are the content).
    public func makeStreamDecoder() -> (any StreamingDecoder)? {
        switch self {
        case .identity: nil
        case .gzip: GzipStreamDecoder()
        case .br: BrotliStreamDecoder()
        }
    }

    /// `bytes` coded whole with the strongest settings (gzip level 9, br quality 11), for content
    /// coded once and sent very often: the embedder's files, at build time. Quality 11 costs about
    /// 20 ms for a 15 KB view and 0.5 s for 300 KB (Benchmarks/COMPRESSION.md), so answers coded at
    /// run time (the view cache's copies) should use `Brotli.encode(_:quality: 5)` and
    /// `Gzip.encode(_:level: 6)` instead.
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
