/// Per-connection state; confined to its event loop's thread (never shared, so not `Sendable`).
final class Connection {
    let fd: Int32
    let serial: UInt64
    var parser: RequestParser
    /// Edge-triggered readiness: true until a short read or EAGAIN shows the socket is drained.
    var readable = true
    /// EPOLLRDHUP seen: the peer shut down its sending side.
    var hangupSeen = false
    /// `recv` returned 0.
    var peerClosed = false
    /// The request currently being handled (in the handler or parked).
    var current: HTTPResponder?
    /// Output not yet accepted by the kernel: (bytes, offset) pairs, bodies shared, never copied.
    var pending: [(bytes: [UInt8], offset: Int)] = []
    var closeAfterWrite = false
    var lingering = false
    var lingerDeadline: UInt64 = 0
    var closed = false
    /// Start of the current head (or of the connection), for the head read timeout.
    var headStartedAt: UInt64
    /// Last read, write progress or response, for the idle timeout.
    var lastActivity: UInt64
    var requestsServed = 0

    init(fd: Int32, serial: UInt64, limits: RequestParser.Limits, now: UInt64) {
        self.fd = fd
        self.serial = serial
        self.parser = RequestParser(limits: limits)
        self.headStartedAt = now
        self.lastActivity = now
    }
}
