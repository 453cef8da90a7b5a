import RecentsCrypto

/// The answer a write gave under an `Idempotency-Key`, stored with the write in its transaction
/// so a retry gets the same answer and writes nothing.
public struct IdempotentReply: Sendable, Hashable {
    /// How long a key is remembered: a retry later than this is a new request. 24 hours, as
    /// common practice for payment APIs (the IETF draft leaves it to the server).
    public static let retentionSeconds: Int64 = 24 * 60 * 60

    /// The fingerprint of the request body the key first came with (`fingerprint(of:)`).
    public var fingerprint: String
    /// The HTTP status of the first answer.
    public var status: Int
    /// The exact body of the first answer.
    public var body: [UInt8]

    /// Creates a reply to record.
    public init(fingerprint: String, status: Int, body: [UInt8]) {
        self.fingerprint = fingerprint
        self.status = status
        self.body = body
    }

    /// The fingerprint of a request body: its SHA-256 in hex, so a retry is recognised by its
    /// exact bytes without storing them.
    public static func fingerprint(of body: some Collection<UInt8>) -> String { SHA256.hex(body) }
}
