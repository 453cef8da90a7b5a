import HTTPClient
import RecentsClientCore
import Synchronization

/// One blocking exchange on a connection of its own, cancellable from any thread.
///
/// The interrupter is registered under the lock while the connection lives and removed before
/// it closes, so `cancel` can never shut down a descriptor number the process has reused.
final class SocketCall: Sendable {
    private struct State {
        var interrupter: HTTPConnectionInterrupter?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Whether `cancel` was called.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Wakes the blocked exchange (it fails at once), and refuses any exchange not yet begun.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.interrupter?.interrupt()
        }
    }

    /// Connects to `target`, runs `body` on the connection and closes it.
    /// - Throws: `.cancelled` after `cancel`, `.transport` with the socket's sentence otherwise.
    func run<T>(
        _ target: SocketTarget, timeout: Duration, _ body: (HTTPConnection) throws(HTTPClientError) -> T
    ) throws(RecentsClientError) -> T {
        let connection: HTTPConnection
        do {
            connection = try HTTPConnection(host: target.host, port: target.port, timeout: timeout)
        } catch {
            throw .transport(error.description)
        }
        let started = state.withLock { state in
            if !state.cancelled { state.interrupter = connection.interrupter }
            return !state.cancelled
        }
        let result = Result { () throws(HTTPClientError) -> T? in started ? try body(connection) : nil }
        state.withLock { $0.interrupter = nil }
        // The connection (and its descriptor) must outlive the interrupter's registration.
        withExtendedLifetime(connection) {}
        switch result {
        case .success(let value?): return value
        case .success(nil): throw .cancelled
        case .failure(let error): throw isCancelled ? .cancelled : .transport(error.description)
        }
    }
}
