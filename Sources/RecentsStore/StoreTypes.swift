import RecentsCore

/// How to open a store.
public struct StoreConfiguration: Sendable, Hashable {
    /// The database file; created (and migrated) if missing. Must be a file: WAL needs one.
    public var path: String
    /// How many versions back from the current one each list answers (`max(forgetFloor, current - retainVersions)`).
    public var retainVersions: Int
    /// Reader threads, each with its own connection.
    public var readers: Int
    /// How long a connection waits for a lock held by another process before failing.
    public var busyTimeoutMilliseconds: Int
    /// The most write requests committed together in one transaction (bounds batch latency).
    public var maxBatchSize: Int

    /// Creates a configuration with the service defaults.
    public init(
        path: String, retainVersions: Int = 1000, readers: Int = 2, busyTimeoutMilliseconds: Int = 5000,
        maxBatchSize: Int = 256
    ) {
        self.path = path
        self.retainVersions = retainVersions
        self.readers = readers
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.maxBatchSize = maxBatchSize
    }
}

/// What a read sees of a list: its version, retention window, state and size.
public struct ListInfo: Sendable, Hashable {
    /// The list name.
    public var name: String
    /// The current version (0 for a list never written).
    public var version: Int64
    /// The oldest version still answered: `max(forgetFloor, version - retainVersions)`.
    public var oldestRetainedVersion: Int64
    /// The state at `version`.
    public var state: ListState
    /// Live calls at `version`.
    public var callCount: Int
    /// Whether the list was ever written (a never-written list reads as empty at version 0).
    public var exists: Bool

    /// Creates a list description.
    public init(
        name: String, version: Int64, oldestRetainedVersion: Int64, state: ListState, callCount: Int, exists: Bool
    ) {
        self.name = name
        self.version = version
        self.oldestRetainedVersion = oldestRetainedVersion
        self.state = state
        self.callCount = callCount
        self.exists = exists
    }
}

/// The result of one write request: the body's value and the versions it created.
public struct WriteOutcome<T: Sendable>: Sendable {
    /// What the body returned.
    public var value: T
    /// The new version of each list this request changed; empty when it changed nothing.
    public var versions: [String: Int64]

    /// Creates an outcome (the store makes these; public for test doubles).
    public init(value: T, versions: [String: Int64]) {
        self.value = value
        self.versions = versions
    }
}

/// Counters of the writer, for `/metrics`.
public struct StoreMetrics: Sendable, Hashable {
    /// Transactions committed for write requests (one fsync each).
    public var batches = 0
    /// Write requests that ran (successful or not).
    public var writes = 0
    /// Write requests that failed: their body threw (rolled back alone) or their batch failed.
    public var failedWrites = 0
    /// Batches whose transaction failed as a whole (every request in them failed).
    public var failedBatches = 0
    /// List versions created.
    public var versionsWritten = 0
    /// Total seconds spent in COMMIT of write batches.
    public var commitSeconds = 0.0
    /// Seconds the last COMMIT took.
    public var lastCommitSeconds = 0.0
    /// The largest batch so far.
    public var maxBatchSize = 0
    /// Batches by size: key `n` counts batches of size in `(n/2, n]` (n = 1, 2, 4, … 256…).
    public var batchSizeHistogram: [Int: Int] = [:]
    /// Rows removed by pruning (calls and list versions).
    public var prunedRows = 0

    /// Empty counters.
    public init() {}
}

/// Failures of the store itself (SQLite failures are `SQLiteError`, schema ones `MigrationError`).
public enum RecentsStoreError: Error, Hashable, Sendable, CustomStringConvertible {
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

    /// A message safe to show clients.
    public var description: String {
        switch self {
        case .closed: "the store is closed"
        case .invalidListName(let name): "invalid list name \(name)"
        case .versionNotRetained(let list, let version): "version \(version) of list \(list) is not retained"
        case .transactionEnded: "transaction used after its body returned"
        case .corruptRow(let what): "corrupt row: \(what)"
        case .invalidConfiguration(let what): "invalid configuration: \(what)"
        case .pruningFailed: "pruning failed; it will be retried"
        }
    }
}
