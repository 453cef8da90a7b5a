/// One queued write request, type-erased for a writer's queue; `Transaction` is the back end's
/// write transaction.
protocol WriteRequest<Transaction>: Sendable {
    associatedtype Transaction: BatchedWriteTransaction
    /// Runs the body and ends `transaction`; throws what the body threw (the caller rolls this
    /// request back alone). May run again when a batch is retried.
    func run(_ transaction: Transaction) throws
    /// Calls the completion: with the body's value and versions, or with `commitError` when the
    /// batch failed to commit.
    func complete(commitError: (any Error)?)
}

/// What `PendingWrite` needs of a back end's write transaction.
protocol BatchedWriteTransaction: AnyObject {
    /// Ends the transaction with the body's result, returning its value or throwing its error.
    func finish<T>(_ result: Result<T, any Error>) throws -> T
    /// The new version of each list the request changed.
    var versions: [String: Int64] { get }
    /// The one place an engine's errors leave the store: as `StoreError`s.
    static func leavingStore(_ error: any Error) -> any Error
}

extension SQLiteWriteTransaction: BatchedWriteTransaction {
    static func leavingStore(_ error: any Error) -> any Error { SQLiteError.leavingStore(error) }
}

extension PGWriteTransaction: BatchedWriteTransaction {
    static func leavingStore(_ error: any Error) -> any Error { PGError.leavingStore(error) }
}
