import CHTTPShim
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
            case .error(let status, let detail):
                sendError(conn, status, detail)
                return
            case .needMore:
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
            if conn.parser.isIdle { conn.headStartedAt = now }
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

    private func dispatch(_ conn: Connection, _ parsed: HTTPRequest, keepAlive: Bool) {
        requestCount.add(1, ordering: .relaxed)
        var request = parsed
        request.receivedAt = clockNow
        request.requestId = requestId(for: request)
        request.peerAddress = conn.peerAddress
        request.clientAddress =
            conn.peerIsTrustedProxy
            ? ClientAddress.resolve(
                peer: conn.peerAddress, headers: request.headers, trusted: core.configuration.trustedProxies)
            : conn.peerAddress
        request.connectionMemo = conn.memo
        let responder = HTTPResponder(
            channel: self, connection: ConnectionSlot(fd: conn.fd, serial: conn.serial), request: request,
            keepAlive: keepAlive, startNanos: now)
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
