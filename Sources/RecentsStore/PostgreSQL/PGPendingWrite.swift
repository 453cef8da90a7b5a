/// One queued PostgreSQL write request, type-erased for the writer's queue.
protocol PGWriteRequest: Sendable {
    /// Runs the body and ends `transaction`; throws what the body threw. May run again when the
    /// batch is retried after a deadlock or serialization failure.
    func run(_ transaction: PGWriteTransaction) throws
    /// Calls the completion: with the body's value and versions, or with `commitError`.
    func complete(commitError: (any Error)?)
}

/// A write body with its completion.
///
/// `@unchecked Sendable`: `outcome` is written and read only by the writer thread (in `run`,
/// then `complete`); the request reaches that thread through `JobQueue`, whose lock orders the
/// hand-over, and the submitter never touches it again.
final class PGPendingWrite<T: Sendable>: PGWriteRequest, @unchecked Sendable {
    private let body: @Sendable (PGWriteTransaction) throws -> T
    private let completion: @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    private var outcome: Result<WriteOutcome<T>, any Error>?

    init(
        body: @escaping @Sendable (PGWriteTransaction) throws -> T,
        completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    ) {
        self.body = body
        self.completion = completion
    }

    func run(_ transaction: PGWriteTransaction) throws {
        do {
            let value = try transaction.finish(Result { try body(transaction) })
            outcome = .success(WriteOutcome(value: value, versions: transaction.versions))
        } catch {
            outcome = .failure(error)
            throw error
        }
    }

    func complete(commitError: (any Error)?) {
        if let commitError {
            completion(.failure(PGError.leavingStore(commitError)))
        } else {
            completion((outcome ?? .failure(StoreError.transactionEnded)).mapError(PGError.leavingStore))
        }
    }
}

/// What the PostgreSQL writer thread can be asked to do.
enum PGWriterJob: Sendable {
    /// A write request, group-committed with its neighbours.
    case write(any PGWriteRequest)
    /// Maintenance run between batches on the writer's connection (pruning, test hooks).
    case task(@Sendable (PGWriterContext) -> Void)
}

/// The writer thread's own objects, handed to maintenance tasks; not Sendable.
final class PGWriterContext {
    let link: PGLink
    let pruner: PGPruner

    init(link: PGLink, pruner: PGPruner) {
        self.link = link
        self.pruner = pruner
    }
}
