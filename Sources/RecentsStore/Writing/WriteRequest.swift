/// One queued write request, type-erased for a writer's queue; `Transaction` is the back end's
/// write transaction.
protocol WriteRequest<Transaction>: Sendable {
    associatedtype Transaction: BatchedWriteTransaction
    /// What the body will look at (planned on first use; only PostgreSQL asks).
    var hint: WriteHint { get }
    /// Runs the body and ends `transaction`; throws what the body threw (the caller rolls this
    /// request back alone). May run again when a batch is retried.
    func run(_ transaction: Transaction) throws
    /// Calls the completion: with the body's value and versions, or with `commitError` when the
    /// batch failed to commit.
    func complete(commitError: (any Error)?)
}

/// What `PendingWrite` and the writer's batch bookkeeping need of a back end's write transaction.
protocol BatchedWriteTransaction: AnyObject {
    /// The engine's failure type: the one place its errors become `StoreError`s.
    associatedtype Failure: EngineError
    /// Ends the transaction with the body's result, returning its value or throwing its error.
    func finish<T>(_ result: Result<T, any Error>) throws -> T
    /// Lists the request changed: name → (row id, the request's new version).
    var changed: [String: (id: Int64, version: Int64)] { get }
    /// Lists whose retention horizon the request moved past what was already pruned.
    var needsPruning: [Int64] { get }
}

extension BatchedWriteTransaction {
    /// The new version of each list the request changed.
    var versions: [String: Int64] { changed.mapValues(\.version) }
}

extension SQLiteWriteTransaction: BatchedWriteTransaction {
    typealias Failure = SQLiteError
}

extension PGWriteTransaction: BatchedWriteTransaction {
    typealias Failure = PGError
}
