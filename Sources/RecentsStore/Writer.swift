import Synchronization
import SystemSupport

/// The single writer: a thread owning the write connection that group-commits queued requests.
///
/// The writer takes every pending request (up to `maxBatchSize`), runs them inside one
/// `BEGIN IMMEDIATE` … `COMMIT`, each under its own `SAVEPOINT` so a throwing body rolls back
/// alone (https://sqlite.org/lang_savepoint.html), and acknowledges them only after `COMMIT`
/// returned: with `synchronous=FULL` in WAL mode that commit is durable, and N requests cost one
/// fsync instead of N.
final class Writer: Sendable {
    let queue = JobQueue<WriterJob>()
    private let finished: JoinableThread

    init(connection: SQLiteConnection, shared: StoreShared, maxBatchSize: Int) {
        let queue = self.queue
        let box = Transfer(connection)
        finished = startThread(named: "recents-writer") {
            guard let connection = box.take() else { return }
            Writer.run(connection: connection, queue: queue, shared: shared, maxBatchSize: max(1, maxBatchSize))
        }
    }

    /// Queues a job; false when the writer is closed.
    func submit(_ job: WriterJob) -> Bool { queue.submit(job) }

    /// Stops accepting jobs, lets the writer drain its queue and waits for the thread to end
    /// (except on a store thread, e.g. a completion dropping the last reference: the writer then
    /// ends on its own after draining).
    func close() {
        queue.close()
        if !isStoreThread { finished.join() }
    }

    private static func run(
        connection: SQLiteConnection, queue: JobQueue<WriterJob>, shared: StoreShared, maxBatchSize: Int
    ) {
        let pruner = Pruner(shared: shared)
        let context = WriterContext(connection: connection, pruner: pruner)
        // After a failed idle pruning chunk, sleep until the next job instead of retrying in a
        // tight loop (e.g. on a full disk); pruning resumes with the next batch.
        var idlePruningFailed = false
        while let jobs = queue.take(max: maxBatchSize, wait: !pruner.hasWork || idlePruningFailed) {
            if jobs.isEmpty {
                // Idle: prune a chunk in its own short transaction, then look at the queue again.
                idlePruningFailed = pruner.step(connection, budget: Pruner.idleBudget, ownTransaction: true) == nil
                continue
            }
            idlePruningFailed = false
            var batch: [any WriteRequest<SQLiteWriteTransaction>] = []
            for job in jobs {
                switch job {
                case .write(let request):
                    batch.append(request)
                case .task(let task):
                    commit(batch, connection: connection, shared: shared, pruner: pruner)
                    batch.removeAll()
                    task(context)
                }
            }
            commit(batch, connection: connection, shared: shared, pruner: pruner)
        }
    }

    /// Runs `batch` in one transaction and completes every request after COMMIT returned.
    private static func commit(
        _ batch: [any WriteRequest<SQLiteWriteTransaction>], connection: SQLiteConnection, shared: StoreShared,
        pruner: Pruner
    ) {
        guard !batch.isEmpty else { return }
        var latest: [String: Int64] = [:]
        var changedIds: [Int64] = []
        var versionsWritten = 0
        var failures = 0
        var storageFailure: StoreError?
        var commitStart = ContinuousClock.now
        do {
            try connection.transaction(.immediate) {
                for request in batch {
                    let transaction = SQLiteWriteTransaction(
                        connection: connection, retainVersions: shared.retainVersions.load(ordering: .relaxed))
                    // Each request under its own savepoint: a throwing body is undone alone.
                    switch try connection.savepoint("w", { try request.run(transaction) }) {
                    case .success:
                        changedIds += transaction.needsPruning
                        for (list, change) in transaction.changed {
                            latest[list] = change.version
                            versionsWritten += 1
                        }
                    case .failure(let error):
                        failures += 1
                        storageFailure = storageFailure ?? Self.storageError(error)
                    }
                }
                // Piggyback a little pruning on this commit: it costs no extra fsync. Its own
                // savepoint keeps a pruning failure from failing the batch.
                pruner.markDirty(changedIds)
                pruner.step(connection, budget: Pruner.batchBudget, ownTransaction: false)
                commitStart = ContinuousClock.now
            }
        } catch {
            pruner.scanAll()  // pruning piggybacked on this batch was rolled back too
            let failure = Self.storageError(error) ?? storageFailure
            if let problem = failure?.storageProblem { shared.health.withLock { $0 = .degraded(reason: problem) } }
            shared.metrics.withLock { metrics in
                metrics.batches += 1
                metrics.failedBatches += 1
                metrics.writes += batch.count
                metrics.failedWrites += batch.count
            }
            // Nothing of the batch is durable: every request fails, with the storage error when
            // there was one (a request's SQLITE_FULL may have ended the whole transaction).
            for request in batch { request.complete(commitError: failure ?? error) }
            return
        }
        shared.health.withLock { health in
            if let problem = storageFailure?.storageProblem {
                health = .degraded(reason: problem)
            } else if versionsWritten > 0 {
                // Only a commit that wrote proves the disk takes writes again (a no-op or a
                // replayed request commits without touching a page).
                health = .ok
            }
        }
        let commitSeconds = SystemClock.seconds(ContinuousClock.now - commitStart)
        shared.metrics.withLock { metrics in
            metrics.batches += 1
            metrics.writes += batch.count
            metrics.failedWrites += failures
            metrics.versionsWritten += versionsWritten
            metrics.commitSeconds += commitSeconds
            metrics.lastCommitSeconds = commitSeconds
            metrics.maxBatchSize = max(metrics.maxBatchSize, batch.count)
            var bucket = 1
            while bucket < batch.count { bucket *= 2 }
            metrics.batchSizeHistogram[bucket, default: 0] += 1
        }
        if !latest.isEmpty, let onCommit = shared.onCommit.withLock({ $0 }) { onCommit(latest) }
        for request in batch { request.complete(commitError: nil) }
    }

    /// `error` as a store-level storage failure (disk full, I/O error, read-only), else nil.
    private static func storageError(_ error: any Error) -> StoreError? {
        guard let error = SQLiteError.leavingStore(error) as? StoreError, error.isStorageUnavailable else { return nil }
        return error
    }
}
