import RecentsCompression
import Synchronization

/// An answer's body with its content-coded copies, each made at most once and shared by every
/// answer that sends the same bytes: a cached view, a long-poll group's transition, an embedded
/// file. So a hit costs no compression work, and a thousand waiters woken by one write share one
/// gzip run.
final class EncodedBody: Sendable {
    /// The bytes as they are.
    let identity: [UInt8]
    /// The strong ETag of the identity bytes, if the answer has one; each coding gets its own.
    let etag: String?
    private let copies: Mutex<Copies>

    private struct Copies {
        var gzip: [UInt8]?
        var br: [UInt8]?
    }

    init(_ identity: [UInt8], etag: String? = nil, gzip: [UInt8]? = nil, br: [UInt8]? = nil) {
        self.identity = identity
        self.etag = etag
        copies = Mutex(Copies(gzip: gzip, br: br))
    }

    /// The bytes in `coding`, made now with `settings` if this is the first time; `made` says
    /// whether they were (what the view cache charges against its budget).
    func bytes(in coding: ContentCoding, settings: CompressionSettings) -> (bytes: [UInt8], made: Int) {
        switch coding {
        case .identity:
            return (identity, 0)
        case .gzip:
            if let made = copies.withLock({ $0.gzip }) { return (made, 0) }
            let made = Gzip.encode(identity, level: settings.gzipLevel)
            copies.withLock { $0.gzip = $0.gzip ?? made }
            return (made, made.count)
        case .br:
            if let made = copies.withLock({ $0.br }) { return (made, 0) }
            let made = Brotli.encode(identity, quality: settings.brotliQuality, window: 22)
            copies.withLock { $0.br = $0.br ?? made }
            return (made, made.count)
        }
    }

    /// The ETag of the body in `coding` (RFC 9110 §8.8.3: each representation has its own strong
    /// tag): the identity tag with `-gz` or `-br` inside its quotes.
    func etag(in coding: ContentCoding) -> String? {
        guard let etag else { return nil }
        return Self.etag(etag, in: coding)
    }

    /// `etag` for the representation in `coding`.
    static func etag(_ etag: String, in coding: ContentCoding) -> String {
        let suffix: String
        switch coding {
        case .identity: return etag
        case .gzip: suffix = "-gz"
        case .br: suffix = "-br"
        }
        guard etag.hasSuffix("\"") else { return etag + suffix }
        return String(etag.dropLast()) + suffix + "\""
    }
}
