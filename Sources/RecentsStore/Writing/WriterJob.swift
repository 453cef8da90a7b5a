/// What a writer thread can be asked to do; `Context` is its engine's writer context.
enum WriterJob<Context: WriterContext>: Sendable {
    /// A write request, group-committed with its neighbours.
    case write(any WriteRequest<Context.Transaction>)
    /// Maintenance run between batches with the writer's context (pruning, test hooks).
    case task(@Sendable (Context) -> Void)
}
