import Dispatch
import Glibc
import RecentsAPI
import RecentsStore
import Synchronization
import SystemSupport

/// Runs `RecentsApp` until SIGTERM or SIGINT, then shuts it down gracefully; with `--auth-jwks`,
/// SIGHUP reads the key set file again at once.
enum SignalShutdown {
    /// Starts the app, blocks until a signal has shut it down, and returns the exit status.
    static func serve(_ configuration: AppConfiguration, logger: Logger) -> Int32 {
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
                    logger.log(.warn, "second signal, exiting without waiting", [("signal", name)])
                    exit(1)
                case .first:
                    break
                }
                logger.log(.info, "shutting down", [("signal", name)])
                // Off the signal queue, so a second signal is still seen while shutdown blocks.
                if let app { DispatchQueue.global().async { app.shutdown() } }
            }
            source.resume()
            return source
        }
        let reload = configuration.authKeySetFile.map { _ in keySetReload(shutdown, queue: queue, logger: logger) }

        let http = configuration.http
        let database = Store.redacted(configuration.store.path)
        let app: RecentsApp
        do {
            app = try RecentsApp.start(configuration)
        } catch {
            logger.log(
                .error, "cannot start",
                [("error", sentence(error)), ("host", http.host), ("port", String(http.port)), ("db", database)])
            return 1
        }
        logger.log(.info, "ready", [("host", http.host), ("port", String(app.port)), ("db", database)])
        if shutdown.started(app) {
            app.shutdown()
        }
        app.waitUntilStopped()
        sources.forEach { $0.cancel() }
        reload?.cancel()
        logger.log(.info, "stopped")
        return 0
    }
}

extension SignalShutdown {
    /// SIGHUP reads the key set file again (the usual "reload your configuration" signal, as nginx
    /// and sshd take it). Installed only with a key set, so without one SIGHUP keeps its default
    /// action; like the others it goes in before start, and one arriving before the app runs is
    /// dropped (the app reads the file as it starts anyway).
    static func keySetReload(
        _ shutdown: ShutdownState, queue: DispatchQueue, logger: Logger
    ) -> any DispatchSourceSignal {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        source.setEventHandler {
            guard let app = shutdown.app else { return }
            logger.log(.info, "reading the key set file again", [("signal", "SIGHUP")])
            app.reloadKeySet()
        }
        source.resume()
        return source
    }
}

/// An error as the sentence its type writes in `description` (every error type the app throws
/// is `CustomStringConvertible`), for an operator to read.
func sentence(_ error: any Error) -> String { String(describing: error) }

/// The app (once started) and whether a shutdown signal arrived, shared by main and signal handlers.
final class ShutdownState: Sendable {
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

    /// The app once started (nil before), for signals that act on it without stopping it.
    var app: RecentsApp? { state.withLock { $0.app } }

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
