import RecentsCompression

/// Undoes an answer's `Content-Encoding` as its body arrives, piece by piece: what a client that
/// asked for compressed answers runs each de-framed piece through (a whole body is one piece).
///
/// Stacked codings (`gzip, br`: gzip applied first) are undone last-applied first. Each piece
/// decodes to at most `limit` bytes, so a broken or hostile server cannot make the client inflate
/// without bound. Not thread-safe: the reader that owns the connection calls it.
public final class HTTPBodyDecoder {
    /// The most bytes one piece may decode to by default (64 MiB).
    public static let defaultLimit = 64 << 20

    private let decoders: [any StreamingDecoder]
    private let codingNames: String
    /// The most bytes one piece may decode to.
    public let limit: Int

    /// A decoder for the answer's `Content-Encoding` (none, `identity`: bytes pass through).
    /// - Throws: `HTTPClientError` when the answer names a coding this client does not speak.
    public init(contentEncoding field: String?, limit: Int = defaultLimit) throws(HTTPClientError) {
        let encodings: ContentEncodings
        do {
            encodings = try ContentEncodings(parsing: field)
        } catch {
            throw HTTPClientError(description: "cannot decode the answer: \(error)")
        }
        decoders = encodings.codings.reversed().compactMap { $0.makeStreamDecoder() }
        codingNames = encodings.codings.map(\.name).joined(separator: ", ")
        self.limit = limit
    }

    /// A decoder for `response`'s `Content-Encoding`.
    /// - Throws: `HTTPClientError` for a coding this client does not speak.
    public convenience init(for response: HTTPClientResponse, limit: Int = defaultLimit) throws(HTTPClientError) {
        try self.init(contentEncoding: response.header("Content-Encoding"), limit: limit)
    }

    /// Whether the body is coded at all (otherwise `decode` returns its input).
    public var isIdentity: Bool { decoders.isEmpty }

    /// The content `piece` adds.
    /// - Throws: `HTTPClientError` when the bytes are not valid for the coding or decode past `limit`.
    public func decode(_ piece: [UInt8]) throws(HTTPClientError) -> [UInt8] {
        var bytes = piece
        do {
            for decoder in decoders { bytes = try decoder.decode(bytes, limit: limit) }
        } catch {
            throw HTTPClientError(description: "cannot decode the answer's \(codingNames) body: \(error)")
        }
        return bytes
    }

    /// Checks that the coded body ended where the answer did.
    /// - Throws: `HTTPClientError` when it was cut short.
    public func finish() throws(HTTPClientError) {
        do {
            for decoder in decoders { try decoder.finish() }
        } catch {
            throw HTTPClientError(description: "cannot decode the answer's \(codingNames) body: \(error)")
        }
    }
}
