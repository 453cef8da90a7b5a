import SystemSupport

/// The PostgreSQL `ListStore`: the same lists in a PostgreSQL database that any number of
/// instances share, group-committing writer threads (`StoreConfiguration.writers`), a pool of reader threads and one
/// listener thread for other instances' commits, each thread with its own connection.
typealias PGListStore = ThreadedListStore<PGEngine>

/// PostgreSQL's parts of the shared store.
enum PGEngine: StoreEngine {
    typealias Context = PGWriterContext

    /// Every instance on the database writes it.
    static var isShared: Bool { true }

    static func read<T>(
        on link: PGLink, retainVersions: Int, _ body: (PGReadTransaction) throws -> T
    ) -> Result<T, any Error> {
        Result {
            do {
                return try PGReadTransaction.perform(on: try link.usable(), retainVersions: retainVersions, body)
            } catch let error as PGError where error.isConnectionFailure {
                // A connection that broke while idle fails its first use; reads are safe to run
                // again, once, on a fresh one.
                link.failed(error)
                return try PGReadTransaction.perform(on: try link.usable(), retainVersions: retainVersions, body)
            }
        }.mapError(PGError.leavingStore)
    }

    static func ping(_ transaction: PGReadTransaction) throws -> Bool {
        try transaction.connection.query("SELECT 1").string(0, 0) == "1"
    }
}

extension ThreadedListStore where Engine == PGEngine {
    /// Connects to `configuration.path` (a PostgreSQL URI), migrates the database and starts the
    /// store's threads; the listener re-checks watched lists every `recheckInterval`. A shard
    /// after the first serves under `fleetEpoch` (`PGConnection.claimEpoch(fleet:)`). A shard's
    /// writes check their buckets' fences (`bucketFences`, `BucketFence`); one database's never do.
    /// - Throws: `StoreError` (`.cannotOpen` when the server cannot be reached), or `MigrationError`.
    static func open(
        _ configuration: StoreConfiguration, logger: Logger = Logger(level: .warn), migrator: PGMigrator = PGMigrator(),
        recheckInterval: Duration = PGListener.recheckInterval, fleetEpoch: String? = nil,
        bucketFences: Bool = false
    ) throws -> PGListStore {
        try configuration.validate()
        let reconnects = PGReconnects(logger: logger)
        let (writeConnections, epoch, readConnections, listenConnection) = try PostgreSQLStore.opening(
            configuration.path
        ) {
            let writeConnection = try PGConnection(uri: configuration.path)
            _ = try migrator.migrate(writeConnection)
            let epoch = try writeConnection.claimEpoch(fleet: fleetEpoch)
            let others = try (1..<configuration.writers).map { _ in try PGConnection(uri: configuration.path) }
            let readConnections = try (0..<configuration.readers).map { _ in
                PGLink(
                    try PGConnection(uri: configuration.path), role: "reader", logger: logger, reconnects: reconnects)
            }
            return ([writeConnection] + others, epoch, readConnections, try PGConnection(uri: configuration.path))
        }
        epoch.log(to: logger)
        let shared = StoreShared(retainVersions: configuration.retainVersions, logger: logger)
        let instance = PGInstance(epoch: epoch.epoch, writers: writeConnections.count, reconnects: reconnects)
        let listener = PGListener(
            connection: listenConnection, shared: shared, instance: instance, recheckInterval: recheckInterval)
        return PGListStore(
            epoch: epoch.epoch, shared: shared,
            writer: Writer(
                contexts: writeConnections.enumerated().map { index, connection in
                    PGWriterContext(
                        connection: connection, shared: shared, instance: instance, index: index,
                        fenced: bucketFences)
                },
                shared: shared, maxBatchSize: configuration.maxBatchSize, name: "recents-pgwrite"),
            readers: ReaderPool(connections: readConnections, name: "recents-pgread"),
            stopOthers: { listener.stop() })
    }
}
