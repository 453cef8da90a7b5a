/// Why compressed bytes could not be turned back into their content.
///
/// The API maps these once: `tooLarge` to 413 (the body would pass `--max-body-bytes`), `corrupt`
/// and `truncated` to 400.
public enum DecompressionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The output would pass `limit` bytes; decoding stopped there, having produced at most
    /// `limit + 1` bytes (a decompression bomb costs no more than the limit).
    case tooLarge(limit: Int)
    /// The bytes are not valid data of the coding (a bad header, checksum, or block).
    case corrupt
    /// The bytes end before the coded stream does.
    case truncated

    /// One sentence, for logs and problem details.
    public var description: String {
        switch self {
        case .tooLarge(let limit): "the decoded content is larger than \(limit) bytes"
        case .corrupt: "the content is not valid for its coding"
        case .truncated: "the coded content ends early"
        }
    }
}
