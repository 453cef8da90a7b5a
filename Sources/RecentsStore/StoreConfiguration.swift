/// How to open a store.
public struct StoreConfiguration: Sendable, Hashable {
    /// The database file; created (and migrated) if missing. Must be a file: WAL needs one.
    public var path: String
    /// How many versions back from the current one each list answers (`max(forgottenBelow, current - retainVersions)`).
    public var retainVersions: Int
    /// Reader threads, each with its own connection.
    public var readers: Int
    /// How long a connection waits for a lock held by another process before failing.
    public var busyTimeoutMilliseconds: Int
    /// The most write requests committed together in one transaction (bounds batch latency).
    public var maxBatchSize: Int
    /// PostgreSQL writer connections, each group-committing its own batches (SQLite has one
    /// writer, whatever this says). One is the default: a batch costs two round trips and one
    /// COMMIT however many requests it holds, so one writer's batches grow with the load, while
    /// several split it into smaller batches that lock each other's lists. Measured over two
    /// instances on 2 cores: 1 writer 5,739-6,967 writes/s, 2: 4,639-5,962, 4: 4,392, 8: 2,771.
    public var writers: Int
    /// A placement file (`Placement`) spreading lists over several PostgreSQL shards; it replaces
    /// `path`, and every shard gets the other settings. Nil: one database, `path`.
    public var placement: String?

    /// The busy timeout of every connection unless a configuration says otherwise.
    public static let defaultBusyTimeoutMilliseconds = 5000

    /// Creates a configuration with the service defaults.
    public init(
        path: String, retainVersions: Int = 1000, readers: Int = 2,
        busyTimeoutMilliseconds: Int = StoreConfiguration.defaultBusyTimeoutMilliseconds,
        maxBatchSize: Int = 256, writers: Int = 1
    ) {
        self.writers = writers
        self.path = path
        self.retainVersions = retainVersions
        self.readers = readers
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.maxBatchSize = maxBatchSize
    }
}
