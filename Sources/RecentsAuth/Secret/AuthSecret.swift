/// The shared HMAC key tokens are signed with: 32 to 4096 bytes.
///
/// Its description never shows the bytes, so logging a configuration cannot leak it.
public struct AuthSecret: Sendable, Hashable, CustomStringConvertible {
    /// RFC 7518 §3.2: an HS256 key must be at least as long as the hash output, 256 bits.
    public static let minimumBytes = 32
    /// Larger is almost surely the wrong file (a database, a certificate chain), not a key.
    public static let maximumBytes = 4096

    /// The key.
    public let bytes: [UInt8]

    /// A secret of exactly `bytes`; `origin` names where it came from in the error.
    /// - Throws: `AuthSecretError` when it is shorter than 32 or longer than 4096 bytes.
    public init(bytes: [UInt8], origin: String = "the auth secret") throws(AuthSecretError) {
        guard bytes.count >= Self.minimumBytes else {
            throw AuthSecretError(
                description:
                    "\(origin) is \(bytes.count) bytes; an auth secret must be at least \(Self.minimumBytes) bytes "
                    + "(e.g. the output of: openssl rand -base64 32)")
        }
        guard bytes.count <= Self.maximumBytes else {
            throw AuthSecretError(
                description: "\(origin) is over \(Self.maximumBytes) bytes; an auth secret must be at most that")
        }
        self.bytes = bytes
    }

    public var description: String { "AuthSecret(\(bytes.count) bytes)" }
}

/// Why no auth secret could be configured; its description is the start-up error line.
public struct AuthSecretError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and what to change.
    public let description: String
}
