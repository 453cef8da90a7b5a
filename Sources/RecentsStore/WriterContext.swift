/// The writer thread's own objects, handed to maintenance tasks; not Sendable.
final class WriterContext {
    let connection: SQLiteConnection
    let pruner: Pruner

    init(connection: SQLiteConnection, pruner: Pruner) {
        self.connection = connection
        self.pruner = pruner
    }
}
