/// What the writer thread can be asked to do.
enum WriterJob: Sendable {
    /// A write request, group-committed with its neighbours.
    case write(any WriteRequest<SQLiteWriteTransaction>)
    /// Maintenance run between batches with the writer's context (pruning, test hooks).
    case task(@Sendable (WriterContext) -> Void)
}
