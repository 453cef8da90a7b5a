internal import CZlib

/// One-shot gzip (RFC 1952) over zlib, for content held whole: a cached view's compressed copy,
/// an embedded file, a request body.
///
/// The output is a standard gzip member: `gzip -d`, browsers and `Gzip.decode` read it.
public enum Gzip {
    /// Compression levels zlib takes: 0 stores, 1 is fastest, 9 is smallest.
    public static let levels = 0...9
    /// Window sizes (log2 of bytes) zlib's deflate takes with gzip framing.
    public static let windowBits = 9...15
    /// Memory levels (log2 of the hash table, roughly): 1 least memory, 9 fastest.
    public static let memoryLevels = 1...9
    /// zlib's own default level, a good balance for content compressed per request.
    public static let defaultLevel = 6

    /// `bytes` as one gzip member compressed at `level` (checked against `levels`).
    public static func encode(_ bytes: [UInt8], level: Int = defaultLevel) -> [UInt8] {
        let deflater = Deflater(level: level, windowBits: 15, memoryLevel: 8)
        return deflater.run(bytes, flush: Z_FINISH, expected: deflater.bound(bytes.count))
    }

    /// The content `bytes` decode to, refused once it would pass `limit` bytes.
    ///
    /// Work and memory stay proportional to `limit`, whatever the input claims: a 10 KB bomb that
    /// inflates to 10 GB fails after about `limit` bytes of output.
    /// - Throws: `DecompressionError.tooLarge`, `.corrupt` (not gzip, bad checksum, bytes after the
    ///   last member) or `.truncated` (the input stops inside a member, or is empty).
    public static func decode(_ bytes: [UInt8], limit: Int) throws(DecompressionError) -> [UInt8] {
        let decoder = GzipStreamDecoder()
        let content = try decoder.decode(bytes, limit: limit)
        try decoder.finish()
        return content
    }
}
