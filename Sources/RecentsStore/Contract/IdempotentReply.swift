import RecentsCrypto

/// The answer a write gave under an `Idempotency-Key`, stored with the write in its transaction
/// so a retry gets the same answer and writes nothing.
public struct IdempotentReply: Sendable, Hashable {
    /// How long a key is remembered: a retry later than this is a new request. 24 hours, as
    /// common practice for payment APIs (the IETF draft leaves it to the server).
    public static let retentionSeconds: Int64 = 24 * 60 * 60

    /// The most keys one list keeps: recording one more forgets the list's oldest, whose retry is
    /// then a first attempt. Clients retry within seconds or minutes, and an offline queue of a
    /// thousand actions is a long time offline; the bound keeps a client that sends a fresh key
    /// with every request from filling the disk for 24 hours (issue 38).
    public static let keysPerList = 1000

    /// How `body` holds the answer.
    public enum Form: Int, Sendable, Hashable {
        /// The answer's exact bytes.
        case answer = 0
        /// What the API rebuilds the exact answer from, with the retry's request (the same bytes,
        /// by the fingerprint): far less than an answer that repeats what was posted.
        case recipe = 1
    }

    /// The fingerprint of the request body the key first came with (`fingerprint(of:)`).
    public var fingerprint: String
    /// The HTTP status of the first answer.
    public var status: Int
    /// The first answer, as `form` says.
    public var body: [UInt8]
    /// How `body` holds the answer.
    public var form: Form

    /// Creates a reply to record.
    public init(fingerprint: String, status: Int, body: [UInt8], form: Form = .answer) {
        self.fingerprint = fingerprint
        self.status = status
        self.body = body
        self.form = form
    }

    /// The fingerprint of a request body: its SHA-256 in hex, so a retry is recognised by its
    /// exact bytes without storing them.
    public static func fingerprint(of body: some Collection<UInt8>) -> String { SHA256.hex(body) }
}
