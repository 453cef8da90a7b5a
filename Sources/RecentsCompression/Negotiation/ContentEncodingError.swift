/// Why a request's `Content-Encoding` cannot be decoded (RFC 9110 §15.5.16: answer 415, with an
/// `Accept-Encoding` that lists what is accepted).
public enum ContentEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A coding we do not speak, named as the client sent it (e.g. `x-unknown`, `deflate`).
    case unsupported(String)
    /// More codings stacked than `ContentEncodings.maxStacked`: each layer is a full decoding
    /// pass, so the stack is bounded to keep a body's work proportional to the limit.
    case tooManyCodings(Int)

    /// One sentence, for problem details.
    public var description: String {
        switch self {
        case .unsupported(let name): "the content coding '\(name)' is not supported"
        case .tooManyCodings(let count):
            "\(count) stacked content codings; at most \(ContentEncodings.maxStacked) are decoded"
        }
    }
}
