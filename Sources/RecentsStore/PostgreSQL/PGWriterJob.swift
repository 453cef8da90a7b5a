/// What the PostgreSQL writer thread can be asked to do.
enum PGWriterJob: Sendable {
    /// A write request, group-committed with its neighbours.
    case write(any WriteRequest<PGWriteTransaction>)
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
