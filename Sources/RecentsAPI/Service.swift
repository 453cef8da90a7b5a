import HTTPServer
import RecentsAuth
import RecentsStore
import Synchronization
import SystemSupport

/// What every endpoint shares, built once at start-up and handed to each endpoint's `make`: the
/// store and its epoch, the live updates, the view cache, the write path, the metrics, and the
/// settings endpoints read. A class: endpoint closures capture it and answers copy those
/// closures on every request, and as a struct each copy retained every field (the
/// configuration's strings too) where a class reference retains once.
final class Service: Sendable {
    let store: any ListStore
    let epoch: String
    let logger: Logger
    /// Heads, long-polls and event streams: everything that reacts to a commit.
    let live: LiveUpdates
    /// Encoded `GET rows` answers by view.
    let views: ViewCache
    /// The one path of every write: load shedding, the store's writer, the version reply.
    let writes: WritePath
    let metrics: APIMetrics
    /// Verifies bearer tokens; nil when auth is off.
    let verifier: JWTVerifier?
    let configuration: AppConfiguration
    /// The running server, for the connection gauge of `/metrics` (set once it started).
    let server: ServerHandle

    /// The service of `configuration` over `store`.
    init(store: any ListStore, configuration: AppConfiguration, verifier: JWTVerifier?, logger: Logger) {
        self.store = store
        self.epoch = store.epoch
        self.logger = logger
        self.verifier = verifier
        self.configuration = configuration
        self.metrics = APIMetrics()
        self.views = ViewCache(maximumBytes: configuration.memory.viewCacheBytes)
        self.live = LiveUpdates(
            store: store, limits: configuration.memory, maxConnections: configuration.http.maxConnections,
            events: configuration.events, verifier: verifier, logger: logger, clock: configuration.clock)
        self.writes = WritePath(store: store, epoch: store.epoch, maximumPending: configuration.maxPendingWrites)
        self.server = ServerHandle()
    }
}

extension Service {
    /// Opens the store `configuration` names (applying migrations) and the service over it, its
    /// live updates subscribed to the store's commits.
    /// - Throws: when auth is misconfigured, or the database cannot be opened or migrated.
    static func open(_ configuration: AppConfiguration) throws -> Service {
        let logger = Logger(level: configuration.logLevel)
        let verifier = try AuthPolicy.verifier(for: configuration, logger: logger)
        let store = try Store.open(configuration.store, logger: logger)
        let service = Service(store: store, configuration: configuration, verifier: verifier, logger: logger)
        store.subscribe(service.live)
        return service
    }
}

/// The HTTP server once it runs: the pipeline is built before the server that calls it.
final class ServerHandle: Sendable {
    private let server = Mutex<HTTPServer?>(nil)

    /// Records the started server.
    func set(_ started: HTTPServer) { server.withLock { $0 = started } }

    /// Connections open now (0 before the server started, or in process).
    var openConnections: Int { server.withLock { $0?.openConnections ?? 0 } }
}
