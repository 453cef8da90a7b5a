import Glibc

extension HTTPConnection {
    /// A handle that wakes this connection's blocked reads from another thread.
    public var interrupter: HTTPConnectionInterrupter { HTTPConnectionInterrupter(socket: socket) }
}

/// Shuts a connection's socket down from any thread, so a read blocked on it (a long-poll, an
/// event stream) fails at once instead of waiting out its timeout.
///
/// It names the descriptor, not the connection: use it only while the connection is alive (the
/// owner serialises `interrupt` with dropping the connection), or it could reach a descriptor
/// number the process has since reused.
public struct HTTPConnectionInterrupter: Sendable {
    let socket: Int32

    /// Shuts both directions down; the peer sees the connection end.
    public func interrupt() { shutdown(socket, Int32(SHUT_RDWR)) }
}
