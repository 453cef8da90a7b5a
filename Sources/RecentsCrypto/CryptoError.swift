internal import CCrypto

/// A libcrypto call that failed, with OpenSSL's own reason when it gave one.
public struct CryptoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed and why.
    public let description: String

    /// Creates an error with the given explanation.
    public init(description: String) {
        self.description = description
    }

    /// The oldest reason on this thread's OpenSSL error queue (which it clears), or a placeholder.
    static func last() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no OpenSSL reason given" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
