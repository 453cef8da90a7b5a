/// The running service: store, HTTP server and routes wired together.
///
/// Interface stub: the real implementation lands with the API issue.
public final class RecentsApp: Sendable {
    /// The port actually bound (useful when the configuration asked for 0).
    public let port: Int

    private init(port: Int) {
        self.port = port
    }

    /// Opens the database (applying migrations), binds the port and starts serving.
    /// - Throws: when the database cannot be opened or migrated, or the port cannot be bound.
    public static func start(_ configuration: AppConfiguration) throws -> RecentsApp {
        RecentsApp(port: configuration.port)
    }

    /// Stops accepting, answers parked long-polls, finishes in-flight requests, closes the database.
    public func shutdown() {}

    /// Blocks until the server has stopped.
    public func waitUntilStopped() {}

    /// Applies pending migrations to the database at `databasePath` and names what was applied.
    public static func migrate(databasePath: String) throws -> [String] { [] }
}
