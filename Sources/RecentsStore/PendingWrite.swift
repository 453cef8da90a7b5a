/// A write body with its completion, for either back end's writer.
///
/// `@unchecked Sendable`: `outcome` is written and read only by the writer thread (in `run`,
/// then `complete`); the request reaches that thread through `JobQueue`, whose lock orders the
/// hand-over, and the submitter never touches it again.
final class PendingWrite<Transaction: BatchedWriteTransaction, T: Sendable>: WriteRequest, @unchecked Sendable {
    let hint: WriteHint
    private let body: @Sendable (Transaction) throws -> T
    private let completion: @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    private var outcome: Result<WriteOutcome<T>, any Error>?

    init(
        hint: WriteHint, body: @escaping @Sendable (Transaction) throws -> T,
        completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    ) {
        self.hint = hint
        self.body = body
        self.completion = completion
    }

    func run(_ transaction: Transaction) throws {
        do {
            let value = try transaction.finish(Result { try body(transaction) })
            outcome = .success(WriteOutcome(value: value, versions: transaction.versions))
        } catch {
            outcome = .failure(error)
            throw error
        }
    }

    func complete(commitError: (any Error)?) {
        // The one place a write's result leaves the store: engine failures become StoreErrors.
        if let commitError {
            completion(.failure(Transaction.Failure.leavingStore(commitError)))
        } else {
            completion((outcome ?? .failure(StoreError.transactionEnded)).mapError(Transaction.Failure.leavingStore))
        }
    }
}
