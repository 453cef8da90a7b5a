/// The writer thread's own objects on one engine and how that engine commits a batch, for the
/// shared `Writer`; maintenance tasks get it too. Lives on the writer thread; not Sendable.
protocol WriterContext: AnyObject, SendableMetatype {
    /// The engine's write transaction.
    associatedtype Transaction: BatchedWriteTransaction
    /// Where the engine's pruning statements run.
    associatedtype Target: PruningTarget

    /// The writer's pruner.
    var pruner: Pruner<Target> { get }
    /// The connection pruning runs on.
    var pruningTarget: Target { get }

    /// Runs `batch` in one transaction, a request that throws rolled back alone, and returns what
    /// it wrote once COMMIT returned (durably).
    /// - Throws: the error every request of the batch fails with: nothing of it is durable.
    func commit(_ batch: [any WriteRequest<Transaction>]) throws -> BatchWritten

    /// Runs after a committed batch was acknowledged (work that need not delay the answers).
    func afterBatch()
}
