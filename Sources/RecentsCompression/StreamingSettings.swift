/// How an event stream's encoder is set up, per coding: gzip's level, window and memory level,
/// Brotli's quality and window.
///
/// Every open stream holds its own encoder, so these settings multiply by the number of open
/// streams: `recommended` is the point measured in Benchmarks/CompressionBench where a stream of
/// typical transition events keeps most of the saving for a small fraction of the memory.
public struct StreamingSettings: Sendable, Equatable {
    /// gzip level, in `Gzip.levels`.
    public var gzipLevel: Int
    /// gzip window, log2 of bytes, in `Gzip.windowBits`.
    public var gzipWindowBits: Int
    /// gzip memory level, in `Gzip.memoryLevels`.
    public var gzipMemoryLevel: Int
    /// Brotli quality, in `Brotli.qualities`.
    public var brotliQuality: Int
    /// Brotli window, log2 of bytes, in `Brotli.windows`.
    public var brotliWindow: Int

    /// Settings from each coding's parameters.
    public init(gzipLevel: Int, gzipWindowBits: Int, gzipMemoryLevel: Int, brotliQuality: Int, brotliWindow: Int) {
        self.gzipLevel = gzipLevel
        self.gzipWindowBits = gzipWindowBits
        self.gzipMemoryLevel = gzipMemoryLevel
        self.brotliQuality = brotliQuality
        self.brotliWindow = brotliWindow
    }

    /// The measured compromise for event streams (see Benchmarks/RESULTS.md, "Event-stream compression").
    public static let recommended = StreamingSettings(
        gzipLevel: 6, gzipWindowBits: 12, gzipMemoryLevel: 5, brotliQuality: 5, brotliWindow: 14)

    /// A fresh encoder for one stream in `coding`, or nil for `identity` (send bytes as they are).
    public func makeEncoder(for coding: ContentCoding) -> (any StreamingEncoder)? {
        switch coding {
        case .identity: nil
        case .gzip: GzipStreamEncoder(level: gzipLevel, windowBits: gzipWindowBits, memoryLevel: gzipMemoryLevel)
        case .br: BrotliStreamEncoder(quality: brotliQuality, window: brotliWindow)
        }
    }
}
