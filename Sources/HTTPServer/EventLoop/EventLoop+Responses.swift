import SystemSupport

extension EventLoop {
    /// Writes `response` for `responder` if its connection is still the one it belongs to.
    func complete(_ responder: HTTPResponder, _ response: HTTPResponse) {
        guard let conn = connection(responder.connection), conn.current === responder
        else { return }
        conn.current = nil
        conn.requestsServed += 1
        conn.lastActivity = now
        releaseBody(conn)
        let keepAlive = keepsAlive(responder, response)
        let status = response.status
        let noBody = ResponseHead.hasNoBody(status: status, isHead: responder.isHead)
        head.write(
            response, requestId: responder.requestId, framing: ResponseHead.framing(of: response),
            keepAlive: keepAlive, versionMinor: responder.versionMinor)
        let bodyBytes = noBody ? 0 : response.body.count
        if core.logger.isEnabled(.info) { logAccess(responder, status: status, bytes: bodyBytes) }
        if !keepAlive { conn.closeAfterWrite = true }
        write(conn, head.bytes, body: noBody ? [] : response.body, bodyOffset: 0)
    }

    /// Whether the connection persists after this answer: the request allowed it, the server is
    /// not draining and the handler did not ask for `Connection: close`.
    func keepsAlive(_ responder: HTTPResponder, _ response: HTTPResponse) -> Bool {
        guard responder.keepAlive && !core.draining.load(ordering: .relaxed) else { return false }
        if let connection = response.headers["Connection"], connection.lowercased().contains("close") { return false }
        return true
    }

    /// Gives back the body budget the connection's request held: it was answered, or the
    /// connection closed.
    func releaseBody(_ conn: Connection) {
        guard conn.bodyReserved > 0 else { return }
        core.bodyBytes.subtract(conn.bodyReserved, ordering: .relaxed)
        conn.bodyReserved = 0
    }

    /// Answers with the configured error renderer and closes the connection afterwards.
    func sendError(_ conn: Connection, _ status: Int, _ detail: String) {
        let response = core.configuration.errorResponse(status, detail)
        let id = nextRequestId()
        head.write(
            response, requestId: id, framing: ResponseHead.framing(of: response), keepAlive: false, versionMinor: 1)
        if core.logger.isEnabled(.info) {
            accessLog.append(
                method: "-", path: "-", remote: conn.peerAddress, status: status, bytes: response.body.count,
                durationNanos: 0, id: id)
        }
        conn.closeAfterWrite = true
        write(conn, head.bytes, body: response.body, bodyOffset: 0)
    }

    /// Logs one answered request.
    func logAccess(_ responder: HTTPResponder, status: Int, bytes: Int) {
        accessLog.append(
            method: responder.summary.method.rawValue, path: responder.summary.path,
            remote: responder.summary.remote, status: status, bytes: bytes,
            durationNanos: SystemClock.monotonicNanoseconds() &- responder.summary.startNanos,
            id: responder.summary.requestId)
    }
}
