import SystemSupport

/// The SQLite writer's own objects, and its batch: one `BEGIN IMMEDIATE` … `COMMIT`, each request
/// under its own `SAVEPOINT` (https://sqlite.org/lang_savepoint.html), with a little pruning
/// piggybacked on the same commit (it costs no extra fsync). Lives on the writer thread.
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
        var written = BatchWritten()
        var commitStart = ContinuousClock.now
        do {
            try connection.transaction(.immediate) {
                for request in batch {
                    let transaction = SQLiteWriteTransaction(
                        connection: connection, retainVersions: shared.retainVersions.load(ordering: .relaxed))
                    written.add(try connection.savepoint("w", { try request.run(transaction) }), of: transaction)
                }
                // Its own savepoint keeps a pruning failure from failing the batch.
                pruner.markDirty(written.changedIds)
                pruner.step(connection, budget: Pruner<SQLiteConnection>.batchBudget, ownTransaction: false)
                commitStart = ContinuousClock.now
            }
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
