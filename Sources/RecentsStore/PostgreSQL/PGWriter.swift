import SystemSupport

/// The PostgreSQL writer: a thread owning the write connection that group-commits queued requests.
///
/// As the SQLite writer: every pending request (up to `maxBatchSize`) runs in one transaction,
/// each under its own savepoint so a throwing body rolls back alone, and is acknowledged only
/// after `COMMIT` returned (with `synchronous_commit=on`, durable). A deadlock or serialization
/// failure (SQLSTATE 40P01, 40001), or a busy out-of-order list lock (55P03, see `PGBatchLocks`),
/// rolls the batch back and runs it again, first locking every list the failed attempt touched in
/// sorted order. The
/// batch's transaction also sends one `NOTIFY` (in chunks) naming the lists and versions it
/// wrote, delivered by PostgreSQL only if it commits.
final class PGWriter: Sendable {
    /// How many times a batch runs before a deadlock or serialization failure is given up on.
    static let maxAttempts = 8

    let queue = JobQueue<PGWriterJob>()
    private let finished: JoinableThread

    init(connection: PGConnection, shared: StoreShared, instance: PGInstance, maxBatchSize: Int) {
        let queue = self.queue
        let box = Transfer(connection)
        finished = startThread(named: "recents-pgwrite") {
            guard let connection = box.take() else { return }
            PGWriter.run(
                link: PGLink(connection), queue: queue, shared: shared, instance: instance,
                maxBatchSize: max(1, maxBatchSize))
        }
    }

    /// Queues a job; false when the writer is closed.
    func submit(_ job: PGWriterJob) -> Bool { queue.submit(job) }

    /// Stops accepting jobs, lets the writer drain its queue and waits for the thread to end.
    func close() {
        queue.close()
        if !isStoreThread { finished.join() }
    }

    private static func run(
        link: PGLink, queue: JobQueue<PGWriterJob>, shared: StoreShared, instance: PGInstance, maxBatchSize: Int
    ) {
        let pruner = PGPruner(shared: shared)
        let context = PGWriterContext(link: link, pruner: pruner)
        var idlePruningFailed = false
        while let jobs = queue.take(max: maxBatchSize, wait: !pruner.hasWork || idlePruningFailed) {
            if jobs.isEmpty {
                idlePruningFailed = !pruner.step(link, budget: PGPruner.idleBudget)
                continue
            }
            idlePruningFailed = false
            var batch: [any WriteRequest<PGWriteTransaction>] = []
            for job in jobs {
                switch job {
                case .write(let request):
                    batch.append(request)
                case .task(let task):
                    commit(batch, link: link, shared: shared, instance: instance, pruner: pruner)
                    batch.removeAll()
                    task(context)
                }
            }
            commit(batch, link: link, shared: shared, instance: instance, pruner: pruner)
        }
    }

    /// What one committed attempt of a batch wrote.
    private struct Written {
        var latest: [String: Int64] = [:]
        var changedIds: [Int64] = []
        var versionsWritten = 0
        var failures = 0
        var commitSeconds = 0.0
    }

    /// Runs `batch` in one transaction (retrying deadlocks) and completes every request after
    /// COMMIT returned.
    private static func commit(
        _ batch: [any WriteRequest<PGWriteTransaction>], link: PGLink, shared: StoreShared, instance: PGInstance,
        pruner: PGPruner
    ) {
        guard !batch.isEmpty else { return }
        var lockFirst: [String] = []
        var attempt = 1
        while true {
            var touched = Set<String>()
            var began = false
            do {
                let written = try attemptBatch(
                    batch, link: link, shared: shared, instance: instance, lockFirst: lockFirst, touched: &touched,
                    began: &began)
                record(written, batchSize: batch.count, shared: shared)
                // Only a commit that wrote proves the database takes writes again.
                if !written.latest.isEmpty { shared.health.withLock { $0 = .ok } }
                pruner.markDirty(written.changedIds)
                if !written.latest.isEmpty, let onCommit = shared.onCommit.withLock({ $0 }) { onCommit(written.latest) }
                for request in batch { request.complete(commitError: nil) }
                _ = pruner.step(link, budget: PGPruner.batchBudget)
                return
            } catch let error as PGError where error.isRetryable && attempt < maxAttempts {
                attempt += 1
                lockFirst = touched.union(lockFirst).sorted()
            } catch let error as PGError where error.connectionLost && !began && attempt == 1 {
                // The connection broke while idle (a server restart): BEGIN failed, nothing was
                // sent, so one more attempt on a fresh connection is safe.
                attempt += 1
            } catch {
                if let problem = (PGError.leavingStore(error) as? StoreError)?.storageProblem {
                    shared.health.withLock { $0 = .degraded(reason: problem) }
                }
                shared.metrics.withLock { metrics in
                    metrics.batches += 1
                    metrics.failedBatches += 1
                    metrics.writes += batch.count
                    metrics.failedWrites += batch.count
                }
                for request in batch { request.complete(commitError: error) }
                return
            }
        }
    }

    private static func attemptBatch(
        _ batch: [any WriteRequest<PGWriteTransaction>], link: PGLink, shared: StoreShared, instance: PGInstance,
        lockFirst: [String],
        touched: inout Set<String>, began: inout Bool
    ) throws -> Written {
        let connection = try link.usable()
        // The listener skips what this backend sends (a reconnect changes it).
        instance.writerPID.store(connection.backendPID, ordering: .relaxed)
        var written = Written()
        var commitStart = ContinuousClock.now
        try connection.transaction {
            began = true
            let locks = PGBatchLocks()
            for list in lockFirst { try locks.lock(list, on: connection) }
            for request in batch {
                let transaction = PGWriteTransaction(
                    connection: connection, retainVersions: shared.retainVersions.load(ordering: .relaxed), locks: locks
                )
                let result = try connection.savepoint { try request.run(transaction) }
                touched.formUnion(transaction.touched)
                if let doomed = transaction.batchFailure { throw doomed }
                switch result {
                case .success:
                    written.changedIds += transaction.needsPruning
                    for (list, change) in transaction.changed {
                        written.latest[list] = change.version
                        written.versionsWritten += 1
                    }
                case .failure:
                    written.failures += 1
                }
            }
            for payload in PGNotifications.payloads(written.latest) {
                try connection.query("SELECT pg_notify($1, $2)", instance.channel, payload)
            }
            commitStart = ContinuousClock.now
        }
        written.commitSeconds = SystemClock.seconds(ContinuousClock.now - commitStart)
        return written
    }

    private static func record(_ written: Written, batchSize: Int, shared: StoreShared) {
        shared.metrics.withLock { metrics in
            metrics.batches += 1
            metrics.writes += batchSize
            metrics.failedWrites += written.failures
            metrics.versionsWritten += written.versionsWritten
            metrics.commitSeconds += written.commitSeconds
            metrics.lastCommitSeconds = written.commitSeconds
            metrics.maxBatchSize = max(metrics.maxBatchSize, batchSize)
            var bucket = 1
            while bucket < batchSize { bucket *= 2 }
            metrics.batchSizeHistogram[bucket, default: 0] += 1
        }
    }
}
