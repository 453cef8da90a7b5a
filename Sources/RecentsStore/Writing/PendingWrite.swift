/// A write body with its completion, for either back end's writer.
///
/// `@unchecked Sendable`: `outcome` and `planned` are written and read only by the writer thread
/// (in `hint`, `run`, then `complete`); the request reaches that thread through `JobQueue`, whose
/// lock orders the hand-over, and the submitter never touches it again.
final class PendingWrite<Transaction: BatchedWriteTransaction & StoreWriter, T: Sendable>: WriteRequest,
    @unchecked Sendable
{
    private let body: @Sendable (any StoreWriter) throws -> T
    private let completion: @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    private var outcome: Result<WriteOutcome<T>, any Error>?
    private var planned: WriteHint?

    /// A request; `hint`, when given, replaces what planning would learn (tests pin hints this way).
    init(
        hint: WriteHint? = nil, body: @escaping @Sendable (any StoreWriter) throws -> T,
        completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    ) {
        self.planned = hint
        self.body = body
        self.completion = completion
    }

    var hint: WriteHint {
        if let planned { return planned }
        let body = self.body
        let hint = WritePlanner.plan { transaction in _ = try body(transaction) }
        planned = hint
        return hint
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
