import Synchronization
import SystemSupport

/// The writer of one store: one thread per write connection (each in its own `Context`), all
/// taking from one queue, that group-commit queued requests, on either engine.
///
/// SQLite has one writer thread. PostgreSQL may have several: their transactions lock the lists
/// they touch (`PGBatchLocks`), so they serialise against each other exactly as two instances on
/// one database do, and PostgreSQL group-commits their COMMITs itself.
///
/// The writer takes every pending request (up to `maxBatchSize`) and has the engine run them in
/// one transaction, a throwing body rolled back alone (SQLite: see `SQLiteWriterContext`;
/// PostgreSQL: see `PGWriteBatch`), and acknowledges them only after COMMIT returned: durable
/// (SQLite `synchronous=FULL` in WAL mode, PostgreSQL `synchronous_commit=on`), and N requests cost
/// one fsync instead of N. After the commit, the `CommitObserver` hears the new versions before any
/// request is acknowledged. Idle, it prunes.
final class Writer<Context: WriterContext>: Sendable {
    let queue = JobQueue<WriterJob<Context>>()
    private let finished: [JoinableThread]

    /// Starts the thread `name`, which takes `context` (created here, used only there).
    convenience init(context: Context, shared: StoreShared, maxBatchSize: Int, name: String) {
        self.init(contexts: [context], shared: shared, maxBatchSize: maxBatchSize, name: name)
    }

    /// Starts one thread per context (named `name`, then `name` and its index), each taking its
    /// context (created by the caller, used only by that thread from then on).
    init(contexts: [Context], shared: StoreShared, maxBatchSize: Int, name: String) {
        let queue = self.queue
        finished = contexts.enumerated().map { index, context in
            startThread(named: index == 0 ? name : "\(name.prefix(13))\(index)", owning: context) { context in
                Writer.run(context: context, queue: queue, shared: shared, maxBatchSize: max(1, maxBatchSize))
            }
        }
    }

    /// Queues a job; false when the writer is closed.
    func submit(_ job: WriterJob<Context>) -> Bool { queue.submit(job) }

    /// Stops accepting jobs, lets the writers drain their queue and waits for the threads to end
    /// (except on a store thread, e.g. a completion dropping the last reference: the writers then
    /// end on their own after draining).
    func close() {
        queue.close()
        if !isStoreThread { for thread in finished { thread.join() } }
    }

    private static func run(
        context: Context, queue: JobQueue<WriterJob<Context>>, shared: StoreShared, maxBatchSize: Int
    ) {
        let pruner = context.pruner
        // After a failed idle pruning chunk, sleep until the next job instead of retrying in a
        // tight loop (e.g. on a full disk); pruning resumes with the next batch.
        var idlePruningFailed = false
        var failures = FailureLog()
        while let jobs = queue.take(max: maxBatchSize, wait: !pruner.hasWork || idlePruningFailed) {
            if jobs.isEmpty {
                // Idle: prune a chunk in its own short transaction, then look at the queue again.
                idlePruningFailed =
                    pruner.step(context.pruningTarget, budget: Pruner<Context.Target>.idleBudget, ownTransaction: true)
                    == nil
                continue
            }
            idlePruningFailed = false
            var batch: [any WriteRequest<Context.Transaction>] = []
            for job in jobs {
                switch job {
                case .write(let request):
                    batch.append(request)
                case .task(let task):
                    commit(batch, context: context, shared: shared, failures: &failures)
                    batch.removeAll()
                    task(context)
                }
            }
            commit(batch, context: context, shared: shared, failures: &failures)
        }
    }

    /// Has the engine commit `batch`, then updates health and metrics, tells the observer and
    /// completes every request.
    private static func commit(
        _ batch: [any WriteRequest<Context.Transaction>], context: Context, shared: StoreShared,
        failures: inout FailureLog
    ) {
        guard !batch.isEmpty else { return }
        let written: BatchWritten
        do {
            written = try context.commit(batch)
        } catch {
            let problem = Context.Transaction.Failure.storageFailure(error)?.storageProblem
            if let problem { shared.health.withLock { $0 = .degraded(reason: problem) } }
            failures.note(problem ?? "\(error)", requests: batch.count, logger: shared.logger)
            shared.metrics.withLock { $0.recordFailure(batchSize: batch.count) }
            for request in batch { request.complete(commitError: error) }
            return
        }
        shared.health.withLock { health in
            if let problem = written.storageFailure?.storageProblem {
                health = .degraded(reason: problem)
            } else if written.versionsWritten > 0 {
                // Only a commit that wrote proves the storage takes writes again (a no-op or a
                // replayed request commits without touching a page).
                health = .ok
            }
        }
        shared.metrics.withLock { $0.record(written, batchSize: batch.count) }
        if !written.latest.isEmpty, let observer = shared.commitObserver { observer.storeCommitted(written.latest) }
        for request in batch { request.complete(commitError: nil) }
        context.afterBatch()
    }
}

/// A writer thread's log of failed batches: the first failure of a kind at once, then at most one
/// line a second with how many batches failed since, so an outage does not flood the log.
struct FailureLog {
    private let throttle = LogThrottle()

    func note(_ reason: String, requests: Int, logger: Logger) {
        throttle.note(reason) { heldBack in
            logger.warn(
                "write batch failed",
                [("requests", String(requests)), ("error", reason), ("failed_since_last_line", String(heldBack))])
        }
    }
}
