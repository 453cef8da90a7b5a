/// Everything `recents serve` can configure; defaults are the documented ones.
public struct AppConfiguration: Sendable, Hashable {
    /// Address to bind.
    public var host = "127.0.0.1"
    /// TCP port to bind; 0 picks a free one (tests).
    public var port = 8080
    /// The SQLite database file, created on first start.
    public var databasePath = "./recents.sqlite"
    /// How many versions of each list stay answerable by `transitions?since=`.
    public var retainVersions = 1000
    /// When set, CORS headers allow this origin and `OPTIONS` preflights are answered.
    public var corsOrigin: String?
    /// `debug`, `info`, `warn` or `error`; access-log lines are `info`.
    public var logLevel = "info"
    /// Largest request head (request line + headers) before 431.
    public var maxHeadBytes = 16 * 1024
    /// Longest request target before 414.
    public var maxURIBytes = 8 * 1024
    /// Largest request body before 413.
    public var maxBodyBytes = 1024 * 1024
    /// Seconds a client may take to send a request head before 408.
    public var headReadTimeout: Double = 10
    /// Seconds an idle keep-alive connection stays open.
    public var idleTimeout: Double = 60
    /// Open connections beyond which new ones get 503.
    public var maxConnections = 20_000
    /// Event-loop threads; 0 means one per core.
    public var loopThreads = 0
    /// SQLite reader threads (each with its own connection).
    public var readers = 2
    /// Writes queued for the store beyond which new ones get 503 `overloaded`.
    public var maxPendingWrites = 8192

    public init() {}
}
