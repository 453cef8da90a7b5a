/// A failure of the store itself, whatever the engine (a body's own errors pass through unchanged).
///
/// The engine failures carry the engine's message for server logs; `description` is a sentence
/// for logs and startup errors, never shown to an HTTP client (the API maps the case instead).
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The store was closed; no more work is accepted.
    case closed
    /// A list name outside `[A-Za-z0-9._-]{1,64}`.
    case invalidListName(String)
    /// The version is not retained for the list (older than its retention window, or newer than current).
    case versionNotRetained(list: String, version: Int64)
    /// A transaction was used after its body returned.
    case transactionEnded
    /// A stored row could not be decoded (a schema or data bug).
    case corruptRow(String)
    /// The configuration is unusable.
    case invalidConfiguration(String)
    /// A pruning chunk failed (it is retried in the background; answers are unaffected).
    case pruningFailed
    /// The database cannot be opened or created; the sentence names the path and the reason.
    case cannotOpen(String)
    /// Another connection or process held a lock for longer than the busy timeout; a retry may work.
    case busy(String)
    /// The disk (or the database's size limit) is full.
    case full(String)
    /// The operating system failed to read or write the database.
    case ioError(String)
    /// The database cannot be written (file, directory or file system read-only).
    case readOnly(String)
    /// The database server does not answer (PostgreSQL down, restarting, or unreachable).
    case unavailable(String)
    /// A constraint failed; `unique` when it was a uniqueness one (e.g. a live call id stored twice).
    case constraint(unique: Bool, String)
    /// The database file is damaged.
    case corrupt(String)
    /// Any other engine failure.
    case engine(String)

    /// Whether the storage itself is unavailable (disk full, I/O error, read-only), which a client
    /// should see as a temporary outage rather than a fault of the server.
    public var isStorageUnavailable: Bool {
        switch self {
        case .full, .ioError, .readOnly, .unavailable: true
        default: false
        }
    }

    /// Whether the database server is out of reach for now (PostgreSQL restarting, failing over,
    /// or unreachable), unlike a full, failing or read-only disk: work that only reads (an open
    /// event stream, a parked long-poll) may wait for it to come back instead of ending. SQLite
    /// never fails this way.
    public var isServerAway: Bool {
        if case .unavailable = self { return true }
        return false
    }

    /// Whether a uniqueness constraint failed.
    public var isUniqueViolation: Bool {
        if case .constraint(unique: true, _) = self { return true }
        return false
    }

    /// What happened, in words (engine cases add the engine's message, never SQL or bound values).
    public var description: String {
        switch self {
        case .closed: "the store is closed"
        case .invalidListName(let name): "invalid list name \(name)"
        case .versionNotRetained(let list, let version): "version \(version) of list \(list) is not retained"
        case .transactionEnded: "transaction used after its body returned"
        case .corruptRow(let what): "corrupt row: \(what)"
        case .invalidConfiguration(let what): "invalid configuration: \(what)"
        case .pruningFailed: "pruning failed; it will be retried"
        case .cannotOpen(let sentence): sentence
        case .busy(let message): "the database is busy: \(message)"
        case .full(let message): "the disk is full: \(message)"
        case .ioError(let message): "disk I/O error: \(message)"
        case .readOnly(let message): "the database is read-only: \(message)"
        case .unavailable(let message): "the database does not answer: \(message)"
        case .constraint(_, let message): "constraint failed: \(message)"
        case .corrupt(let message): "the database file is corrupt: \(message)"
        case .engine(let message): "database error: \(message)"
        }
    }
}
