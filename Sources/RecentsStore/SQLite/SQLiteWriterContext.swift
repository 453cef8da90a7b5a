import SystemSupport

/// The SQLite writer's own objects, and its batch: one `BEGIN IMMEDIATE` … `COMMIT` in which a
/// request that throws is undone alone, with a little pruning piggybacked on the same commit (it
/// costs no extra fsync). Lives on the writer thread.
///
/// A batch first runs its requests one after the other with no savepoint: a request that throws
/// before it changed a row (a 404, a 409: the API checks before it writes) needs nothing undone.
/// Only when one throws after changing rows is the batch rolled back and run again with each
/// request under its own `SAVEPOINT` (https://sqlite.org/lang_savepoint.html). Why: a savepoint per
/// request (SAVEPOINT, RELEASE, and the pages it journals) cost ~6% of the CPU of a write at
/// concurrency 64, for an undo that the API's own requests almost never need.
final class SQLiteWriterContext: WriterContext {
    let connection: SQLiteConnection
    let pruner: Pruner<SQLiteConnection>
    private let shared: StoreShared

    init(connection: SQLiteConnection, shared: StoreShared) {
        self.connection = connection
        self.shared = shared
        self.pruner = Pruner(shared: shared)
    }

    var pruningTarget: SQLiteConnection { connection }

    func commit(_ batch: [any WriteRequest<SQLiteWriteTransaction>]) throws -> BatchWritten {
        do {
            return try commit(batch, savepoints: false)
        } catch is PartlyWritten {
            var written = try commit(batch, savepoints: true)
            written.rerun = true
            return written
        }
    }

    /// A request threw after it changed rows, in a batch run without savepoints.
    private struct PartlyWritten: Error {}

    private func commit(_ batch: [any WriteRequest<SQLiteWriteTransaction>], savepoints: Bool) throws -> BatchWritten {
        var written = BatchWritten()
        var commitStart = ContinuousClock.now
        do {
            try connection.transaction(.immediate) {
                for request in batch {
                    let transaction = SQLiteWriteTransaction(
                        connection: connection, retainVersions: shared.retainVersions.load(ordering: .relaxed))
                    if savepoints {
                        written.add(try connection.savepoint("w", { try request.run(transaction) }), of: transaction)
                        continue
                    }
                    let changesBefore = connection.totalChanges
                    let outcome = Result { try request.run(transaction) }
                    if case .failure(let error) = outcome {
                        // As under a savepoint: SQLite may have ended the whole transaction.
                        guard connection.inTransaction else { throw error }
                        if connection.totalChanges != changesBefore { throw PartlyWritten() }
                    }
                    written.add(outcome, of: transaction)
                }
                // Its own savepoint keeps a pruning failure from failing the batch.
                pruner.markDirty(written.changedIds)
                pruner.step(connection, budget: Pruner<SQLiteConnection>.batchBudget, ownTransaction: false)
                commitStart = ContinuousClock.now
            }
        } catch let error as PartlyWritten {
            throw error  // rolled back before any pruning ran
        } catch {
            pruner.scanAll()  // pruning piggybacked on this batch was rolled back too
            // Every request fails, with the storage error when there was one (a request's
            // SQLITE_FULL may have ended the whole transaction).
            throw SQLiteError.storageFailure(error) ?? written.storageFailure ?? error
        }
        written.commitSeconds = SystemClock.seconds(ContinuousClock.now - commitStart)
        return written
    }

    /// Pruning rode on the batch's own transaction already.
    func afterBatch() {}
}
