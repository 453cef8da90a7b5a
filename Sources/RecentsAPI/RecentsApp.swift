import HTTPServer
import RecentsAuth
import RecentsStore
import SystemSupport

/// The running service: store, HTTP server and routes wired together.
public final class RecentsApp: Sendable {
    /// The port actually bound (useful when the configuration asked for 0).
    public let port: Int
    /// The database's epoch: versions are comparable only within it.
    public let epoch: String
    private let server: HTTPServer
    /// The store (internal so end-to-end tests can reach the SQLite writer, e.g. to fill the disk).
    let store: any ListStore
    private let service: Service
    private let stopping = OnceFlag()
    private let stoppedSignal = ThreadLatch()

    private init(server: HTTPServer, store: any ListStore, service: Service) {
        self.server = server
        self.store = store
        self.service = service
        self.port = server.localPort
        self.epoch = store.epoch
    }

    /// Opens the database (applying migrations), binds the port and starts serving. A start that
    /// fails leaves no database file it created (a port in use must not leave an empty database).
    /// - Throws: when the database cannot be opened or migrated, or the port cannot be bound.
    public static func start(_ configuration: AppConfiguration) throws -> RecentsApp {
        let creates = configuration.store.placement == nil && Store.wouldCreate(configuration.store.path)
        do {
            return try launch(configuration)
        } catch {
            if creates { Store.removeCreated(configuration.store.path) }
            throw error
        }
    }

    /// `start` without the clean-up of a failure: the store is closed when the server cannot start.
    private static func launch(_ configuration: AppConfiguration) throws -> RecentsApp {
        let service = try Service.open(configuration)
        let store = service.store
        let logger = service.logger

        var http = configuration.http
        let cors = CORSMiddleware(origin: configuration.corsOrigin)
        http.errorResponse = { status, detail in APIError.httpLayerResponse(status: status, detail: detail, cors: cors)
        }
        let pipeline = Routes.pipeline(service)
        http.admission = pipeline.admission
        let server = HTTPServer(configuration: http, logger: logger, handler: pipeline.handler)
        server.onShutdown { service.live.shutdown() }
        do {
            try server.start()
        } catch {
            store.close()
            throw error
        }
        service.server.set(server)
        return RecentsApp(server: server, store: store, service: service)
    }

    /// Stops accepting, answers parked long-polls, finishes in-flight requests, closes the database.
    /// Safe to call more than once and from any thread.
    public func shutdown() {
        guard stopping.claim() else { return }
        service.verifier?.provider?.stopWatching()
        server.shutdown(gracePeriod: .seconds(5))
        store.close()
        stoppedSignal.countDown()
    }

    /// Reads the `--auth-jwks` file again now (SIGHUP), whether or not it looks changed; nil
    /// without a key set. A bad file keeps the keys in use and is logged at error level.
    @discardableResult
    public func reloadKeySet() -> KeySetReload? {
        service.verifier?.provider?.reload(force: true)
    }

    /// Blocks until `shutdown()` has finished.
    public func waitUntilStopped() {
        stoppedSignal.wait()
    }

    /// Applies pending migrations to the database `databasePath` names (a SQLite file or a
    /// PostgreSQL URI) and names what was applied.
    /// - Throws: when the database cannot be opened, a migration fails, or it was changed or is newer than this binary.
    public static func migrate(databasePath: String) throws -> [String] {
        try Store.migrate(StoreConfiguration(path: databasePath)).map(\.description)
    }
}
