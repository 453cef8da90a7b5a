import Glibc
import RecentsCompression

/// A blocking HTTP/1.1 client connection over a plain socket: `recents healthcheck` and `seed`,
/// and every test that talks to a server.
///
/// Written against Glibc rather than FoundationNetworking because the binary is linked with
/// `--static-swift-stdlib` and runs in a slim image without libcurl. Requests go one after another
/// on the same connection (keep-alive). Connecting, each exchange (sending a request and reading
/// its answer), each lone read or send and waiting for the close each end within `timeout`, so
/// no caller can hang on a silent peer.
///
/// Compression is opt-in: with `acceptsCompression` each request asks for `br, gzip` and each
/// answer's body is decoded (its fields stay as received, `Content-Encoding` included); a request
/// body is sent coded by passing `contentEncoding`.
public final class HTTPConnection {
    /// Host name or numeric address connected to.
    public let host: String
    /// TCP port connected to.
    public let port: Int
    /// The bound on connecting and on each exchange or wait after it.
    public let timeout: Duration
    let socket: Int32
    private var parser = ResponseParser()
    private var peerClosed = false

    /// The `Accept-Encoding` sent when `acceptsCompression` is on: br preferred, then gzip.
    public static let acceptedCodings = "br, gzip"
    /// Whether requests ask for compressed answers (`Accept-Encoding: br, gzip`, unless the
    /// request names its own) and `request`/`readResponse` decode their bodies.
    public var acceptsCompression = false
    /// The most bytes a decoded answer body may have (a bomb fails the exchange, not the process).
    public var maxDecodedBodyBytes = HTTPBodyDecoder.defaultLimit

    /// Connects to `host`:`port` (a name or a numeric IPv4 or IPv6 address) within `timeout`.
    /// - Throws: `HTTPClientError` when the name does not resolve or no address accepts in time.
    public init(host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(15)) throws(HTTPClientError) {
        self.host = host
        self.port = port
        self.timeout = timeout
        socket = try Socket.connect(host: host, port: port, deadline: .now + timeout)
    }

    deinit { close(socket) }

    /// `host:port` as a URL authority (IPv6 in brackets), for the `Host` field and messages.
    public var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Sends one request and reads its answer. A body gets `Content-Length` and, unless `headers`
    /// name one, `Content-Type: application/json`.
    @discardableResult
    public func request(
        _ method: String, _ target: String, body: String? = nil, headers: [(String, String)] = []
    ) throws(HTTPClientError) -> HTTPClientResponse {
        try request(method, target, bytes: body.map { Array($0.utf8) }, headers: headers)
    }

    /// Sends one request with a body of raw bytes (nil: no body) and reads its answer; a
    /// `contentEncoding` other than identity codes the body and labels it `Content-Encoding`.
    @discardableResult
    public func request(
        _ method: String, _ target: String, bytes body: [UInt8]?, headers: [(String, String)] = [],
        contentEncoding: ContentCoding = .identity
    ) throws(HTTPClientError) -> HTTPClientResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(authority)\r\n"
        var fields = headers
        if acceptsCompression && !fields.contains(where: { $0.0.lowercased() == "accept-encoding" }) {
            fields.append(("Accept-Encoding", Self.acceptedCodings))
        }
        let body = body.map { Self.coded($0, contentEncoding) }
        if body != nil && contentEncoding != .identity { fields.append(("Content-Encoding", contentEncoding.name)) }
        if let body {
            if !fields.contains(where: { $0.0.lowercased() == "content-type" }) {
                fields.append(("Content-Type", "application/json"))
            }
            fields.append(("Content-Length", String(body.count)))
        }
        for (name, value) in fields { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let deadline = ContinuousClock.now + timeout
        try Socket.sendAll(Array(head.utf8) + (body ?? []), on: socket, deadline: deadline, to: authority)
        return try readResponse(head: method == "HEAD", deadline: deadline)
    }

    /// Sends bytes as they are (a test's hand-written or malformed request).
    public func sendRaw(_ bytes: [UInt8]) throws(HTTPClientError) {
        try Socket.sendAll(bytes, on: socket, deadline: .now + timeout, to: authority)
    }

    /// Reads the next answer on the connection (`head`: the request was HEAD, so no body follows).
    /// - Throws: when the answer is malformed, the peer closes first, or `timeout` passes.
    public func readResponse(head: Bool = false) throws(HTTPClientError) -> HTTPClientResponse {
        try readResponse(head: head, deadline: .now + timeout)
    }

    private func readResponse(
        head: Bool, deadline: ContinuousClock.Instant
    ) throws(HTTPClientError) -> HTTPClientResponse {
        var response = try receiving(until: deadline) { parser, closed throws(HTTPClientError) in
            try parser.next(head: head, closed: closed)
        }
        if acceptsCompression && !response.body.isEmpty {
            let decoder = try HTTPBodyDecoder(for: response, limit: maxDecodedBodyBytes)
            response.body = try decoder.decode(response.body)
            try decoder.finish()
        }
        return response
    }

    /// A request body in `coding`, at settings fit for sending once: gzip level 6, br quality 5
    /// (quality 11 costs about a second per megabyte).
    static func coded(_ body: [UInt8], _ coding: ContentCoding) -> [UInt8] {
        switch coding {
        case .identity: body
        case .gzip: Gzip.encode(body, level: 6)
        case .br: Brotli.encode(body, quality: 5)
        }
    }

    /// Receives until `take` finds what it wants in the buffered bytes (it returns nil for "more").
    /// - Throws: what `take` throws, or when the peer closes first or `deadline` passes.
    func receiving<T>(
        until deadline: ContinuousClock.Instant? = nil,
        _ take: (inout ResponseParser, _ closed: Bool) throws(HTTPClientError) -> T?
    ) throws(HTTPClientError) -> T {
        let deadline = deadline ?? .now + timeout
        while true {
            if let value = try take(&parser, peerClosed) { return value }
            guard !peerClosed else {
                throw HTTPClientError(description: "connection closed before a complete answer from \(authority)")
            }
            try receive(until: deadline)
        }
    }

    /// Reads (and buffers) until the peer closes; false when `timeout` passes first.
    public func waitForClose() -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !peerClosed {
            do throws(HTTPClientError) {
                try receive(until: deadline)
            } catch {
                return peerClosed
            }
        }
        return true
    }

    /// Bytes received after the last answer read (to check that the server sent nothing more).
    public var unread: [UInt8] { parser.buffer }

    /// Half-closes the connection: the server sees end of input, answers what it has, then closes.
    public func shutdownWrite() { Glibc.shutdown(socket, Int32(SHUT_WR)) }

    /// Shrinks (or grows) the kernel's receive buffer, so a test sees the server's backpressure sooner.
    public func setReceiveBufferSize(_ bytes: Int32) {
        var value = bytes
        setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// One `recv` into the parser; marks the peer closed on end of input or reset.
    private func receive(until deadline: ContinuousClock.Instant) throws(HTTPClientError) {
        guard Socket.wait(for: Int16(POLLIN), on: socket, until: deadline) else {
            throw HTTPClientError(description: "timed out waiting for \(authority)")
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            parser.append(chunk[..<count])
        } else if count == 0 || errno == ECONNRESET {
            peerClosed = true
        } else if errno != EAGAIN && errno != EINTR {
            throw HTTPClientError(description: "cannot read from \(authority): \(Socket.message(errno))")
        }
    }
}
