import HTTPServer
import RecentsCompression

/// Which content coding an answer goes out in (RFC 9110 §12.5.3): what the client's
/// `Accept-Encoding` accepts, what is worth compressing, and whether the answer then varies.
enum AnswerCoding {
    /// The coding for a body of `size` bytes answering `request`; nil when the client accepts
    /// nothing this server can send (it refused identity, and br and gzip): answer 406.
    ///
    /// Bodies under the threshold go out as they are, unless the client refused identity; with
    /// compression off, everything does (and a client that refused identity gets 406).
    static func choose(for request: HTTPRequest, size: Int, settings: CompressionSettings) -> ContentCoding? {
        let accept = AcceptEncoding(field: request.headers["Accept-Encoding"])
        guard settings.enabled else { return accept.weight(of: .identity) == nil ? nil : .identity }
        if size < settings.threshold, accept.weight(of: .identity) != nil { return .identity }
        return accept.preferred(among: [.br, .gzip, .identity])
    }

    /// Whether a body of `size` bytes may go out in another coding than identity, so that its
    /// answer depends on `Accept-Encoding` and must say so in `Vary` (RFC 9110 §12.5.5).
    static func varies(size: Int, settings: CompressionSettings) -> Bool {
        settings.enabled && size >= settings.threshold
    }

    /// The 406 for a client that refused every coding this server has.
    static let unacceptable = APIError.notAcceptable(
        "this answer is available as identity, gzip or br, and the request's Accept-Encoding refuses all three")
}
