import SystemSupport

/// The PostgreSQL writer's own objects, and its batch: one transaction, whose requests hold their
/// plain writes back for a few set-based statements (`PGWriteBatch`). A deadlock or serialization
/// failure (SQLSTATE 40P01, 40001), or a busy out-of-order list lock (55P03, see `PGBatchLocks`),
/// rolls the batch back and runs it again, first locking every list the failed attempt touched in
/// sorted order. Once a batch committed and was answered, one `NOTIFY` (in chunks) names the lists
/// and versions it wrote (`notifyOthers`). Lives on the writer thread.
final class PGWriterContext: WriterContext {
    /// How many times a batch runs before a deadlock or serialization failure is given up on.
    static let maxAttempts = 8

    let link: PGLink
    let pruner: Pruner<PGLink>
    private let shared: StoreShared
    /// What this instance's connections share (its notification channel, writer PIDs, reconnects).
    let instance: PGInstance
    /// Versions committed but not yet notified (`notifyOthers`).
    private var unsent: [String: Int64] = [:]
    /// This writer's index among the instance's writer connections.
    private let index: Int
    /// Whether every write checks its buckets' fences (`BucketFence`): a shard of a sharded store.
    private let fenced: Bool

    init(connection: PGConnection, shared: StoreShared, instance: PGInstance, index: Int = 0, fenced: Bool = false) {
        self.fenced = fenced
        self.link = PGLink(
            connection, role: index == 0 ? "writer" : "writer\(index)", logger: shared.logger,
            reconnects: instance.reconnects)
        self.shared = shared
        self.instance = instance
        self.index = index
        self.pruner = Pruner(shared: shared)
    }

    var pruningTarget: PGLink { link }

    func commit(_ batch: [any WriteRequest<PGWriteTransaction>]) throws -> BatchWritten {
        var lockFirst: [String] = []
        var safeMode = false
        var attempt = 1
        while true {
            var touched = Set<String>()
            var began = false
            do {
                let written = try attemptBatch(
                    batch, lockFirst: lockFirst, safeMode: safeMode, touched: &touched, began: &began)
                pruner.markDirty(written.changedIds)
                unsent.merge(written.latest, uniquingKeysWith: max)
                return written
            } catch let error as PGError where error.isRetryable && attempt < Self.maxAttempts {
                attempt += 1
                lockFirst = touched.union(lockFirst).sorted()
            } catch is PGBatchDoomed where !safeMode {
                // A statement failed where no savepoint covered it: once more, every request under
                // its own savepoint, so that the failure is the failing request's alone.
                safeMode = true
                lockFirst = touched.union(lockFirst).sorted()
            } catch let error as PGError where error.isConnectionFailure && !began && attempt == 1 {
                // The connection broke while idle (a server restart): BEGIN failed, nothing was
                // sent, so one more attempt on a fresh connection is safe.
                link.failed(error)
                attempt += 1
            } catch let error as PGError where error.isReadOnlyRefusal && link.leavesReadOnlyServers && attempt == 1 {
                // The server no longer takes writes (fenced or demoted in a switchover), so nothing
                // of the batch committed: once more on the server that takes them now, if any.
                link.failed(error)
                attempt += 1
            } catch let doomed as PGBatchDoomed {
                link.failed(doomed.error)
                throw doomed.error
            } catch let error as PGError {
                // The next batch reconnects when this one lost its connection (a COMMIT whose
                // outcome is unknown fails its requests with 503; their keyed retries settle it).
                link.failed(error)
                throw error
            }
        }
    }

    /// Tells the other instances what the batch committed, then prunes: both wait until the
    /// batch is answered (each pruning statement commits on its own).
    func afterBatch() {
        notifyOthers()
        _ = pruner.step(link, budget: Pruner<PGLink>.batchBudget, ownTransaction: false)
    }

    /// One `NOTIFY` (in chunks) naming the lists and versions committed since the last one, in
    /// its own transaction with `synchronous_commit` off. Why not in the batch's transaction: a
    /// committing NOTIFY holds PostgreSQL's database-wide notify lock until its commit is flushed,
    /// so every writer of every instance queued behind one fsync at a time. Without the wait for
    /// the flush the lock is held for microseconds. A crash can lose the notification (the
    /// writes are durable anyway): listeners re-check watched lists every 5 s for exactly that.
    private func notifyOthers() {
        guard !unsent.isEmpty, let connection = try? link.usable() else { return }
        for payload in PGNotifications.payloads(unsent) {
            // One statement outside a transaction block: set_config's local value lasts until
            // the statement's own commit, which is when synchronous_commit is read.
            _ = try? connection.query(
                "SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)", instance.channel, payload)
        }
        unsent.removeAll()
    }

    private func attemptBatch(
        _ batch: [any WriteRequest<PGWriteTransaction>], lockFirst: [String], safeMode: Bool,
        touched: inout Set<String>, began: inout Bool
    ) throws -> BatchWritten {
        let connection = try link.usable()
        // The listener skips what this backend sends (a reconnect changes it).
        instance.setWriterPID(connection.backendPID, of: index)
        var written = BatchWritten()
        var commitStart = ContinuousClock.now
        let state = PGWriteBatch(safeMode: safeMode, fenced: fenced)
        let retainVersions = shared.retainVersions.load(ordering: .relaxed)
        do {
            // A retry must lock these first too: requests find them in the overlay, not by locking.
            touched.formUnion(try state.open(batch.map(\.hint), lockFirst: lockFirst, on: connection))
            began = true
            for request in batch {
                let transaction = PGWriteTransaction(
                    connection: connection, retainVersions: retainVersions, batch: state)
                let result = Result {
                    try transaction.begin()
                    try request.run(transaction)
                }
                touched.formUnion(transaction.touched)
                if let doomed = transaction.batchFailure {
                    throw transaction.needsSafeMode ? PGBatchDoomed(error: doomed) : doomed
                }
                try transaction.settle(result)
                written.add(result, of: transaction)
            }
            commitStart = ContinuousClock.now
            try state.commit(on: connection)
        } catch {
            if connection.isHealthy, connection.inTransaction { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
        written.commitSeconds = SystemClock.seconds(ContinuousClock.now - commitStart)
        written.changedIds = Self.worthPruning(
            written.changedIds, rows: state.overlay.rows.values, retain: retainVersions)
        return written
    }

    /// How many versions a list's retention horizon may run ahead of its pruned floor before a
    /// batch hands it to the pruner (`worthPruning`): a sixteenth of the window.
    static func pruningSlack(retainVersions: Int) -> Int64 { Int64(max(0, retainVersions) / 16) }

    /// The lists of `changed` whose horizon ran at least `pruningSlack` past their pruned floor,
    /// and those with a clear waiting.
    ///
    /// Why not every list whose horizon moved, as SQLite does: past its window, every write moves
    /// a list's horizon, and pruning it here costs three statements, one an UPDATE of the list's
    /// row that commits (an fsync) on its own and waits for that row's lock behind the other
    /// writers, all on this writer's thread between two batches: under a steady load, more
    /// round trips than the batch itself. A list is pruned every `pruningSlack` versions instead;
    /// what that leaves is below the horizon, so no answer sees it, and `pruneNow` or the scan
    /// at the next start removes the rest of a list no longer written.
    static func worthPruning(_ changed: [Int64], rows: some Sequence<ListRow>, retain: Int) -> [Int64] {
        guard !changed.isEmpty else { return changed }
        let slack = pruningSlack(retainVersions: retain)
        var lag: [Int64: Int64] = [:]
        for row in rows {
            // A clear's hidden calls wait for the pruner whatever the window: marking them goes on
            // batch after batch until none is left (`list_clears`).
            lag[row.id] =
                row.clearedBelow > 0
                ? slack : max(row.forgottenBelow, row.version - Int64(max(0, retain))) - row.prunedBelow
        }
        return changed.filter { (lag[$0] ?? slack) >= slack }
    }
}

/// A statement of a batch failed where no savepoint covered it, so the transaction cannot go on;
/// the batch runs again in `PGWriteBatch.safeMode`.
struct PGBatchDoomed: Error {
    let error: PGError
}
