internal import CHTTPShim
import Glibc

extension EventLoop {
    private static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Reacts to one epoll event on a connection.
    func handle(_ conn: Connection, events: EpollEvents) {
        if events.contains(.error) {
            close(conn)
            return
        }
        if !events.isDisjoint(with: [.input, .peerHangUp, .hangUp]) {
            conn.readable = true
            if !events.isDisjoint(with: [.peerHangUp, .hangUp]) { conn.hangupSeen = true }
        }
        if events.contains(.output) && !conn.pending.isEmpty {
            flush(conn)
            if conn.closed { return }
        }
        if conn.lingering {
            lingerRead(conn)
            return
        }
        if conn.current != nil {
            // A parked request or stream whose client hung up is released at once (the client may
            // half-close, but a half-closed long-poll has nobody left to read the answer).
            if conn.hangupSeen { close(conn) }
            return
        }
        process(conn)
    }

    /// Parses and dispatches buffered requests one at a time until blocked.
    func process(_ conn: Connection) {
        while !conn.closed && !conn.lingering && conn.current == nil && conn.pending.isEmpty {
            switch conn.parser.next() {
            case .request(let request, let keepAlive):
                dispatch(conn, request, keepAlive: keepAlive)
            case .head(let head):
                // Auth and rate limits decide before the body costs a byte of memory or a second
                // of the connection; a refused body is never read (the connection then closes).
                guard admit(conn, head) else { return }
            case .error(let status, let detail):
                sendError(conn, status, detail)
                return
            case .needMore:
                // A chunked body commits more as its chunk sizes arrive.
                guard holdBudget(conn) else { return }
                if conn.parser.takeContinueRequest() {
                    // RFC 9110 §10.1.1: the body is within limits, so invite the client to send it.
                    write(conn, Self.continueBytes, body: [], bodyOffset: 0)
                    continue
                }
                if conn.peerClosed {
                    close(conn)
                    return
                }
                if !conn.readable {
                    conn.parser.releaseMemoryIfIdle()
                    return
                }
                readOnce(conn)
            }
        }
    }

    private func readOnce(_ conn: Connection) {
        let n = chttp_read(conn.fd, scratch.baseAddress, scratch.count)
        if n > 0 {
            if conn.parser.isIdleInPlace() { conn.headStartedAt = now }
            conn.lastActivity = now
            conn.parser.append(UnsafeRawBufferPointer(rebasing: scratch[0..<n]))
            // A short read drained the socket; the next arrival raises a new edge. After a hang-up,
            // keep reading to observe EOF.
            if n < scratch.count && !conn.hangupSeen { conn.readable = false }
        } else if n == 0 {
            conn.peerClosed = true
            conn.readable = false
        } else if -n == Int(EAGAIN) || -n == Int(EWOULDBLOCK) {
            conn.readable = false
        } else {
            close(conn)
        }
    }

    /// Decides on a head whose body follows (the admission hook, then the body budget), letting
    /// its body be read; false when it was answered instead and its body will not be read.
    private func admit(_ conn: Connection, _ parsed: HTTPRequest) -> Bool {
        var request = parsed
        request.receivedSinceOrigin = clockNow
        request.requestId = requestId(for: request)
        stampConnection(&request, conn)
        conn.bodyStartedAt = now
        var note: (any Sendable)?
        if let admission = core.configuration.admission {
            // Not kept alive: a refusal closes the connection rather than read the body it skips.
            let responder = HTTPResponder(
                channel: self, connection: ConnectionSlot(fd: conn.fd, serial: conn.serial), request: request,
                keepAlive: false, startNanos: now)
            conn.current = responder
            currentResponder = responder
            let result = admission(request, responder)
            currentResponder = nil
            switch result {
            case .answered:
                if conn.current === responder && !conn.closed {
                    responder.markParkedIfPending()
                    if conn.peerClosed || conn.hangupSeen { close(conn) }
                }
                return false
            case .readBody(let kept):
                // An answer given to the head's responder anyway goes nowhere from now on.
                if conn.current === responder { conn.current = nil }
                note = kept
            }
        }
        if conn.closed { return false }
        conn.admitted = Connection.AdmittedHead(
            requestId: request.requestId, receivedSinceOrigin: request.receivedSinceOrigin, startNanos: now, note: note)
        conn.parser.admitBody()
        return holdBudget(conn)
    }

    /// Takes what the body being received newly committed to from the server's body budget;
    /// false, after answering 503, when the budget cannot hold it.
    private func holdBudget(_ conn: Connection) -> Bool {
        let extra = conn.parser.bodyCommitmentInPlace() - conn.bodyReserved
        guard extra > 0 else { return true }
        guard core.reserveBody(extra) else {
            sendError(conn, 503, "too many request bodies are being received at once; retry shortly")
            return false
        }
        conn.bodyReserved += extra
        return true
    }

    /// What a request learns from its connection: the peer, the client behind a trusted proxy
    /// (issue 45; the same for a head and its whole request, so the rate limit's key is), and
    /// what the application remembered on it.
    private func stampConnection(_ request: inout HTTPRequest, _ conn: Connection) {
        request.peerAddress = conn.peerAddress
        request.clientAddress =
            conn.peerIsTrustedProxy
            ? ClientAddress.resolve(
                peer: conn.peerAddress, headers: request.headers, trusted: core.configuration.trustedProxies)
            : conn.peerAddress
        request.connectionMemo = conn.memo
    }

    private func dispatch(_ conn: Connection, _ parsed: HTTPRequest, keepAlive: Bool) {
        requestCount.add(1, ordering: .relaxed)
        var request = parsed
        var startNanos = now
        if let admitted = conn.admitted {
            // The request whose head was admitted: the same id, clock and note.
            conn.admitted = nil
            request.receivedSinceOrigin = admitted.receivedSinceOrigin
            request.requestId = admitted.requestId
            request.admission = admitted.note
            startNanos = admitted.startNanos
        } else {
            request.receivedSinceOrigin = clockNow
            request.requestId = requestId(for: request)
        }
        stampConnection(&request, conn)
        let responder = HTTPResponder(
            channel: self, connection: ConnectionSlot(fd: conn.fd, serial: conn.serial), request: request,
            keepAlive: keepAlive, startNanos: startNanos)
        conn.current = responder
        currentResponder = responder
        core.handler(request, responder)
        currentResponder = nil
        if conn.current === responder && !conn.closed {
            responder.markParkedIfPending()
            if conn.peerClosed || conn.hangupSeen { return close(conn) }
            // A parked long-poll or an open stream may hold its connection for minutes: give the
            // request's bytes back now rather than when the answer ends (a few hundred bytes
            // each, at 16,000 streams megabytes).
            conn.parser.releaseMemoryIfIdle()
        }
    }

    /// The client's `X-Request-Id` when it is a short printable token, else a generated one.
    private func requestId(for request: HTTPRequest) -> String {
        if let given = request.headers["X-Request-Id"], !given.isEmpty, given.utf8.count <= 128,
            given.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E })
        {
            return given
        }
        return nextRequestId()
    }
}
