/// Per-connection state; confined to its event loop's thread (never shared, so not `Sendable`).
/// Exclusivity: every stored `var` is `@exclusivity(unchecked)`. A connection lives on its event
/// loop's thread alone (other threads reach it only through the loop's mailbox), and the loop never
/// accesses one property while an access to it is open: the dynamic checks, which ran in every test
/// and benchmark without a conflict, cost about 20 calls into the runtime per request (callgrind).
final class Connection {
    /// A response being streamed on this connection (see `HTTPStream`).
    struct OpenStream {
        let handle: HTTPStream
        /// HTTP/1.1 chunked framing; false for HTTP/1.0 (close-delimited) or a body-less answer.
        let chunked: Bool
        /// HEAD, 1xx, 204 or 304: chunks are accepted and dropped.
        let discardsBody: Bool
        /// Whether the connection serves further requests after `finish()`.
        let keepAlive: Bool
        let status: Int
        /// Body bytes handed to the socket (for the access log).
        var bodyBytes = 0
    }

    /// What a request took on at its head, for when its body is complete.
    struct AdmittedHead {
        let requestId: String
        /// `HTTPRequest.receivedSinceOrigin`: a frozen type, so this struct's layout is static.
        let receivedSinceOrigin: Duration
        let startNanos: UInt64
        /// What the admission hook noted (`HTTPRequest.admission`).
        let note: (any Sendable)?
    }

    let fd: Int32
    let serial: UInt64
    /// The client's numeric address, given to each of its requests.
    let peerAddress: String
    /// Whether the peer is a trusted proxy, whose forwarding headers name each request's client.
    let peerIsTrustedProxy: Bool
    @exclusivity(unchecked) var parser: RequestParser
    /// Edge-triggered readiness: true until a short read or EAGAIN shows the socket is drained.
    @exclusivity(unchecked) var readable = true
    /// EPOLLRDHUP seen: the peer shut down its sending side.
    @exclusivity(unchecked) var hangupSeen = false
    /// `recv` returned 0.
    @exclusivity(unchecked) var peerClosed = false
    /// The request currently being handled (in the handler, parked or streaming).
    @exclusivity(unchecked) var current: HTTPResponder?
    /// The stream `current` started, until it finishes or the connection closes.
    @exclusivity(unchecked) var stream: OpenStream?
    /// Output not yet accepted by the kernel: (bytes, offset) pairs, bodies shared, never copied.
    @exclusivity(unchecked) var pending: [(bytes: [UInt8], offset: Int)] = []
    @exclusivity(unchecked) var closeAfterWrite = false
    @exclusivity(unchecked) var lingering = false
    @exclusivity(unchecked) var lingerDeadline: UInt64 = 0
    @exclusivity(unchecked) var closed = false
    /// Start of the current head (or of the connection), for the head read timeout.
    @exclusivity(unchecked) var headStartedAt: UInt64
    /// Last read, write progress or response, for the idle timeout.
    @exclusivity(unchecked) var lastActivity: UInt64
    /// When the current request's head was admitted, for the body's total deadline.
    @exclusivity(unchecked) var bodyStartedAt: UInt64 = 0
    /// Bytes of the server's body budget the current request holds, until it is answered.
    @exclusivity(unchecked) var bodyReserved = 0
    /// The current request's head, admitted while its body is being received.
    @exclusivity(unchecked) var admitted: AdmittedHead?
    @exclusivity(unchecked) var requestsServed = 0
    /// What the application asked to keep for this connection's next requests (`HTTPResponder.remember`).
    @exclusivity(unchecked) var memo: (any AnyObject & Sendable)?

    init(
        fd: Int32, serial: UInt64, peerAddress: String = "", peerIsTrustedProxy: Bool = false,
        limits: RequestParser.Limits, now: UInt64
    ) {
        self.fd = fd
        self.serial = serial
        self.peerAddress = peerAddress
        self.peerIsTrustedProxy = peerIsTrustedProxy
        self.parser = RequestParser(limits: limits)
        self.headStartedAt = now
        self.lastActivity = now
    }
}
