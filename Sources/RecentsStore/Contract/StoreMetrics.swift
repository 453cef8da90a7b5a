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
    /// Batches run a second time, each request under a savepoint, because a request threw after
    /// it had changed rows (SQLite only).
    public var rerunBatches = 0
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
