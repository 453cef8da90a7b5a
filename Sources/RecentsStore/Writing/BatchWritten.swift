/// What one committed batch wrote: the writer's bookkeeping for the commit observer, health and metrics.
struct BatchWritten {
    /// The newest version of each list the batch changed.
    var latest: [String: Int64] = [:]
    /// Lists whose retention horizon moved past what was pruned.
    var changedIds: [Int64] = []
    /// Versions created (one per changed list per request).
    var versionsWritten = 0
    /// Requests whose body threw (rolled back alone).
    var failures = 0
    /// The first storage failure a request met (its batch may still have committed).
    var storageFailure: StoreError?
    /// Seconds COMMIT took.
    var commitSeconds = 0.0
    /// Whether the batch ran twice: the first time a request threw after it had changed rows.
    var rerun = false

    /// Notes what one request did: its changes, or its failure (undone alone).
    mutating func add<Transaction: BatchedWriteTransaction>(
        _ outcome: Result<Void, any Error>, of transaction: Transaction
    ) {
        switch outcome {
        case .success:
            changedIds += transaction.needsPruning
            for (list, change) in transaction.changed {
                latest[list] = change.version
                versionsWritten += 1
            }
        case .failure(let error):
            failures += 1
            storageFailure = storageFailure ?? Transaction.Failure.storageFailure(error)
        }
    }
}

extension StoreMetrics {
    /// Counts a batch that committed.
    mutating func record(_ written: BatchWritten, batchSize: Int) {
        batches += 1
        writes += batchSize
        failedWrites += written.failures
        if written.rerun { rerunBatches += 1 }
        versionsWritten += written.versionsWritten
        commitSeconds += written.commitSeconds
        lastCommitSeconds = written.commitSeconds
        maxBatchSize = max(maxBatchSize, batchSize)
        var bucket = 1
        while bucket < batchSize { bucket *= 2 }
        batchSizeHistogram[bucket, default: 0] += 1
    }

    /// Counts a batch that failed as a whole.
    mutating func recordFailure(batchSize: Int) {
        batches += 1
        failedBatches += 1
        writes += batchSize
        failedWrites += batchSize
    }
}
