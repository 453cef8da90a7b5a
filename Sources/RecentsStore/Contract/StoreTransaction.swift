/// What a transaction of either engine holds while its body runs: the connection, the retention
/// window it started with, the `lists` rows it read, and whether it is still valid.
///
/// Valid only inside the body it was passed to, on the thread running that body; not Sendable.
class StoreTransaction<Connection> {
    let connection: Connection
    /// The retention window in force when the transaction started.
    let retainVersions: Int64
    /// The first error a cursor met (iterators cannot throw); fails the transaction at its end.
    var deferredError: Error?
    private(set) var isActive = true
    /// `lists` rows already read in this transaction: a read transaction sees one snapshot, and a
    /// write transaction forgets a row whenever it changes it, so a request that looks its list up
    /// three times (info, call lookup, new version) runs the query once.
    var listRows: [String: ListRow] = [:]

    init(connection: Connection, retainVersions: Int) {
        self.connection = connection
        self.retainVersions = Int64(max(0, retainVersions))
    }

    func checkActive() throws {
        if !isActive { throw StoreError.transactionEnded }
    }

    /// The retention rule: `max(forgottenBelow, version - retainVersions)`, and never below what was
    /// pruned (which only bites when the window was widened after pruning).
    func oldestRetained(_ row: ListRow) -> Int64 {
        max(row.forgottenBelow, row.prunedBelow, row.version - retainVersions)
    }

    /// Ends the transaction's validity (an engine closes its cursors here too).
    func end() { isActive = false }

    /// Ends the transaction after its body gave `result`: a cursor's deferred error fails a body
    /// that returned.
    func finish<T>(_ result: Result<T, any Error>) throws -> T {
        end()
        let value = try result.get()
        if let deferredError { throw deferredError }
        return value
    }
}
