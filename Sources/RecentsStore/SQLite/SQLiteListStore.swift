import SystemSupport

/// The SQLite `ListStore`: versioned lists of calls in one SQLite file, one group-committing
/// writer thread and a pool of reader threads (read-only connections: in WAL mode readers never
/// wait for the writer).
typealias SQLiteListStore = ThreadedListStore<SQLiteEngine>

/// SQLite's parts of the shared store.
enum SQLiteEngine: StoreEngine {
    typealias Context = SQLiteWriterContext

    /// One process owns the database.
    static var isShared: Bool { false }

    static func read<T>(
        on connection: SQLiteConnection, retainVersions: Int, _ body: (SQLiteReadTransaction) throws -> T
    ) -> Result<T, any Error> {
        Result { try SQLiteReadTransaction.perform(on: connection, retainVersions: retainVersions, body) }
            .mapError(SQLiteError.leavingStore)
    }

    static func ping(_ transaction: SQLiteReadTransaction) throws -> Bool {
        try transaction.connection.queryInt("SELECT 1") == 1
    }
}

extension ThreadedListStore where Engine == SQLiteEngine {
    /// Opens (creating and migrating if needed) the store at `configuration.path` and starts its threads.
    /// - Throws: `StoreError` (`.cannotOpen` with a sentence for path problems), or `MigrationError`.
    static func open(_ configuration: StoreConfiguration, logger: Logger = Logger(level: .warn)) throws
        -> SQLiteListStore
    {
        try configuration.validate()
        let timeout = Int32(clamping: configuration.busyTimeoutMilliseconds)
        let (writeConnection, epoch, readConnections) = try SQLiteStore.opening(configuration.path) {
            let writeConnection = try SQLiteConnection(path: configuration.path, busyTimeoutMilliseconds: timeout)
            _ = try Migrator().migrate(writeConnection)
            let epoch = try writeConnection.claimEpoch()
            let readConnections = try (0..<configuration.readers).map { _ in
                try SQLiteConnection(path: configuration.path, busyTimeoutMilliseconds: timeout, readOnly: true)
            }
            return (writeConnection, epoch, readConnections)
        }
        epoch.log(to: logger)
        let shared = StoreShared(retainVersions: configuration.retainVersions, logger: logger)
        return SQLiteListStore(
            epoch: epoch.epoch, shared: shared,
            writer: Writer(
                context: SQLiteWriterContext(connection: writeConnection, shared: shared), shared: shared,
                maxBatchSize: configuration.maxBatchSize, name: "recents-writer"),
            readers: ReaderPool(connections: readConnections))
    }
}
