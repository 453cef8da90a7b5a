import HTTPServer
import RecentsAuth
import RecentsStore
import SystemSupport

/// The service without a socket: the same store, pipeline and live updates as `RecentsApp`,
/// driven through an `InProcessConnection`, so endpoint tests run without ports, event loops or
/// the kernel in between (a smaller set of tests keeps the real socket end to end).
public final class InProcessApp: Sendable {
    /// Sends requests straight into the pipeline.
    public let connection: InProcessConnection
    /// The database's epoch.
    public let epoch: String
    /// The store (internal so tests can reach its writer).
    let store: any ListStore
    /// The view cache (internal so tests can read its usage).
    var views: ViewCache { service.views }
    /// Open streams busy sending (internal so tests can wait for them to settle).
    var busyStreams: Int { service.live.streams.busyCount }
    private let service: Service
    private let stopping = OnceFlag()

    /// Opens the database (applying migrations) and builds the pipeline; binds nothing.
    /// - Throws: when auth is misconfigured, or the database cannot be opened or migrated.
    public init(_ configuration: AppConfiguration) throws {
        service = try Service.open(configuration)
        store = service.store
        epoch = service.epoch
        let pipeline = Routes.pipeline(service)
        connection = InProcessConnection(handler: pipeline.handler, admission: pipeline.admission)
    }

    /// Reads the `--auth-jwks` file again now, as SIGHUP makes `RecentsApp` do; nil without a key set.
    @discardableResult
    public func reloadKeySet() -> KeySetReload? {
        service.verifier?.provider?.reload(force: true)
    }

    /// Answers parked long-polls and ends streams as a shutdown does, then closes the database.
    public func shutdown() {
        guard stopping.claim() else { return }
        service.verifier?.provider?.stopWatching()
        service.live.shutdown()
        store.close()
    }

    deinit { shutdown() }
}
