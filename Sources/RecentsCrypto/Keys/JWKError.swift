/// Why a JSON Web Key, or the public key made from its members, was refused, naming the member
/// at fault so whoever maintains the key set can find it.
public struct JWKError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JWK member at fault (`kty`, `kid`, `n`, `d`, ...).
    public let member: String
    /// What is wrong with it.
    public let reason: String

    /// Creates an error about `member`.
    public init(member: String, reason: String) {
        self.member = member
        self.reason = reason
    }

    /// `member: reason`, as a log line or a start-up refusal shows it.
    public var description: String { "\(member): \(reason)" }
}
