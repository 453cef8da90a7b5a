/// One queued write request, type-erased for the writer's queue.
protocol WriteRequest: Sendable {
    /// Runs the body and ends `transaction`; throws what the body threw (the caller rolls this
    /// request back alone).
    func run(_ transaction: SQLiteWriteTransaction) throws
    /// Calls the completion: with the body's value and versions, or with `commitError` when the
    /// batch failed to commit.
    func complete(commitError: (any Error)?)
}
