/// How an event stream's encoder is set up, per coding: gzip's level, window and memory level,
/// Brotli's quality and window.
///
/// Every open stream holds its own encoder, so these settings multiply by the number of open
/// streams, and a stream's events can no longer share one encoded copy with the other streams
/// of their group. Measured (Benchmarks/COMPRESSION.md), the recommendation is to leave event
/// streams uncompressed; `lowMemory` is the setting to use if they are compressed anyway.
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

    /// The measured low-memory point for event streams: gzip with a 2 KiB window keeps 87% of the
    /// saving (96 bytes per typical event instead of 718) for about 18 KiB per stream. Brotli keeps
    /// history across flushes only from quality 2, at 270+ KiB per stream, so its setting here
    /// (quality 1, no history, 10 KiB) saves only 38%: offer streams gzip, not br.
    public static let lowMemory = StreamingSettings(
        gzipLevel: 6, gzipWindowBits: 11, gzipMemoryLevel: 3, brotliQuality: 1, brotliWindow: 12)

    /// A fresh encoder for one stream in `coding`, or nil for `identity` (send bytes as they are).
    public func makeEncoder(for coding: ContentCoding) -> (any StreamingEncoder)? {
        switch coding {
        case .identity: nil
        case .gzip: GzipStreamEncoder(level: gzipLevel, windowBits: gzipWindowBits, memoryLevel: gzipMemoryLevel)
        case .br: BrotliStreamEncoder(quality: brotliQuality, window: brotliWindow)
        }
    }
}
