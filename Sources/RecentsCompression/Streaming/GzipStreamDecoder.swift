/// Inflates a gzip stream piece by piece as its bytes arrive (a client reading an event stream,
/// or a request body handed over whole by `Gzip.decode`).
///
/// Not thread-safe: one owner calls it.
public final class GzipStreamDecoder: StreamingDecoder {
    private let inflater = Inflater()

    /// A decoder waiting for the first byte of a gzip stream.
    public init() {}

    /// What `chunk` adds to the content, at most `limit` bytes of it for this call.
    /// - Throws: `DecompressionError.tooLarge` past `limit`, `.corrupt` for bytes that are not
    ///   gzip; after an error every call throws it again.
    public func decode(_ chunk: [UInt8], limit: Int = .max) throws(DecompressionError) -> [UInt8] {
        try inflater.run(chunk, limit: limit)
    }

    /// Checks that the stream ended where its bytes did.
    /// - Throws: `DecompressionError.truncated` when the last member is incomplete (or none began),
    ///   or the error that ended the stream earlier.
    public func finish() throws(DecompressionError) {
        if let failure = inflater.failure { throw failure }
        guard inflater.atMemberEnd else { throw .truncated }
    }
}
