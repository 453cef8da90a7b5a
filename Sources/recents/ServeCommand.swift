import Dispatch
import Foundation
import RecentsAPI
import Synchronization

/// `recents serve`: flags → `AppConfiguration` → `RecentsApp`, with signal-driven graceful shutdown.
enum ServeCommand {
    /// Ceiling for the timeouts, so a typo cannot make a connection linger for years.
    static let maximumTimeout: Double = 86_400

    static let flags: [FlagSpec] = [
        FlagSpec("host", value: "ADDR", default: "127.0.0.1", help: "address to bind (0.0.0.0 for all interfaces)"),
        FlagSpec("port", value: "PORT", default: "8080", help: "TCP port to bind, 0..65535 (0 picks a free one)"),
        FlagSpec(
            "db", value: "PATH", default: "./recents.sqlite", help: "SQLite database file, created on first start"),
        FlagSpec(
            "retain-versions", value: "N", default: "1000", help: "versions per list answerable by ?since= (>= 1)"),
        FlagSpec("cors-origin", value: "ORIGIN", default: nil, help: "allow this CORS origin and answer preflights"),
        FlagSpec("log-level", value: "LEVEL", default: "info", help: "debug, info, warn or error"),
        FlagSpec("max-head-bytes", value: "BYTES", default: "16384", help: "largest request head before 431 (>= 1)"),
        FlagSpec("max-uri-bytes", value: "BYTES", default: "8192", help: "longest request target before 414 (>= 1)"),
        FlagSpec("max-body-bytes", value: "BYTES", default: "1048576", help: "largest request body before 413 (>= 1)"),
        FlagSpec("head-timeout", value: "SECONDS", default: "10", help: "time to send a request head before 408"),
        FlagSpec(
            "idle-timeout", value: "SECONDS", default: "60", help: "time an idle keep-alive connection stays open"),
        FlagSpec(
            "max-connections", value: "N", default: "20000", help: "open connections beyond which new ones get 503"),
        FlagSpec("threads", value: "N", default: "0", help: "event-loop threads, 0 = one per core"),
        FlagSpec("readers", value: "N", default: "2", help: "SQLite reader threads, each with its own connection"),
    ]

    /// Builds the configuration from parsed flags; every invalid value is a usage error.
    static func configuration(from flags: ParsedFlags) throws(UsageError) -> AppConfiguration {
        var config = AppConfiguration()
        if let host = try flags.nonEmptyString("host") { config.host = host }
        if let port = try flags.integer("port", in: 0...65_535) { config.port = port }
        if let path = try flags.nonEmptyString("db") { config.databasePath = path }
        if let retain = try flags.integer("retain-versions", in: 1...Int.max) { config.retainVersions = retain }
        if let origin = flags.string("cors-origin"), !origin.isEmpty { config.corsOrigin = origin }
        if let level = try flags.choice("log-level", from: LogLevel.allCases.map(\.rawValue)) {
            config.logLevel = level
        }
        if let bytes = try flags.integer("max-head-bytes", in: 1...Int.max) { config.maxHeadBytes = bytes }
        if let bytes = try flags.integer("max-uri-bytes", in: 1...Int.max) { config.maxURIBytes = bytes }
        if let bytes = try flags.integer("max-body-bytes", in: 1...Int.max) { config.maxBodyBytes = bytes }
        if let seconds = try flags.seconds("head-timeout", maximum: maximumTimeout) { config.headReadTimeout = seconds }
        if let seconds = try flags.seconds("idle-timeout", maximum: maximumTimeout) { config.idleTimeout = seconds }
        if let count = try flags.integer("max-connections", in: 1...Int.max) { config.maxConnections = count }
        if let count = try flags.integer("threads", in: 0...1024) { config.loopThreads = count }
        if let count = try flags.integer("readers", in: 1...256) { config.readers = count }
        return config
    }

    /// Starts the app, blocks until a signal has shut it down, and returns the exit status.
    static func run(_ flags: ParsedFlags) throws(UsageError) -> Int32 {
        let config = try configuration(from: flags)
        let logger = Logger(minimum: LogLevel(rawValue: config.logLevel) ?? .info)
        logger.log(
            .debug, "configuration",
            [
                "host": config.host, "port": String(config.port), "db": config.databasePath,
                "retain_versions": String(config.retainVersions), "cors_origin": config.corsOrigin ?? "",
                "log_level": config.logLevel, "max_head_bytes": String(config.maxHeadBytes),
                "max_uri_bytes": String(config.maxURIBytes), "max_body_bytes": String(config.maxBodyBytes),
                "head_timeout": String(config.headReadTimeout), "idle_timeout": String(config.idleTimeout),
                "max_connections": String(config.maxConnections), "threads": String(config.loopThreads),
                "readers": String(config.readers),
            ])

        // Handlers go in before start: migrations can take a while, and a SIGTERM meanwhile must
        // still stop the server. SIG_IGN first, or the default action would kill the process
        // before the dispatch source sees the signal.
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let shutdown = ShutdownState()
        let queue = DispatchQueue(label: "recents.signals")
        let sources = [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")].map { number, name in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                let (app, kind) = shutdown.signalled()
                switch kind {
                case .duplicate:
                    return
                case .repeated:
                    // A later second signal means the graceful path is stuck (or the operator is
                    // impatient): leave at once; SQLite's WAL keeps the database consistent.
                    logger.log(.warn, "second signal, exiting without waiting", ["signal": name])
                    exit(1)
                case .first:
                    break
                }
                logger.log(.info, "shutting down", ["signal": name])
                // Off the signal queue, so a second signal is still seen while shutdown blocks.
                if let app { DispatchQueue.global().async { app.shutdown() } }
            }
            source.resume()
            return source
        }

        let app: RecentsApp
        do {
            app = try RecentsApp.start(config)
        } catch {
            logger.log(
                .error, "cannot start",
                [
                    "error": String(describing: error), "host": config.host, "port": String(config.port),
                    "db": config.databasePath,
                ])
            return 1
        }
        logger.log(.info, "listening", ["host": config.host, "port": String(app.port), "db": config.databasePath])
        if shutdown.started(app) {
            app.shutdown()
        }
        app.waitUntilStopped()
        sources.forEach { $0.cancel() }
        logger.log(.info, "stopped")
        return 0
    }
}

/// The app (once started) and whether a shutdown signal arrived, shared by main and signal handlers.
private final class ShutdownState: Sendable {
    private let state = Mutex<(app: RecentsApp?, firstSignal: ContinuousClock.Instant?)>((nil, nil))

    /// A repeat closer than this to the first signal is the same event delivered twice (e.g.
    /// `timeout(1)` signals both the child and its process group), not an impatient operator.
    static let repeatWindow: Duration = .milliseconds(500)

    /// What a signal means given the ones before it.
    enum Kind {
        /// Start the graceful shutdown.
        case first
        /// The first one delivered again: ignore.
        case duplicate
        /// A later one: stop at once.
        case repeated
    }

    /// Records a signal; returns the app to stop (nil while starting) and what the signal means.
    func signalled() -> (app: RecentsApp?, kind: Kind) {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let first = state.firstSignal else {
                state.firstSignal = now
                return (state.app, .first)
            }
            return (state.app, first.duration(to: now) >= Self.repeatWindow ? .repeated : .duplicate)
        }
    }

    /// Records the started app; true when a signal arrived during startup, so main must stop it.
    func started(_ app: RecentsApp) -> Bool {
        state.withLock { state in
            state.app = app
            return state.firstSignal != nil
        }
    }
}
