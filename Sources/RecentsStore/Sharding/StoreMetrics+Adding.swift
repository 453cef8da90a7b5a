extension StoreMetrics {
    /// These counters and `other`'s together (several shards' writers as one): counts add up,
    /// the largest batch and the last commit time are the larger of the two.
    func adding(_ other: StoreMetrics) -> StoreMetrics {
        var sum = self
        sum.batches += other.batches
        sum.writes += other.writes
        sum.failedWrites += other.failedWrites
        sum.failedBatches += other.failedBatches
        sum.rerunBatches += other.rerunBatches
        sum.versionsWritten += other.versionsWritten
        sum.commitSeconds += other.commitSeconds
        sum.lastCommitSeconds = max(lastCommitSeconds, other.lastCommitSeconds)
        sum.maxBatchSize = max(maxBatchSize, other.maxBatchSize)
        sum.batchSizeHistogram.merge(other.batchSizeHistogram, uniquingKeysWith: +)
        sum.prunedRows += other.prunedRows
        return sum
    }
}
