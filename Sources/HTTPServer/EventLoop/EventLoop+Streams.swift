import Glibc

extension EventLoop {
    /// Sends a stream's head and makes it the connection's current answer.
    func openStream(_ stream: HTTPStream, _ response: HTTPResponse) {
        let responder = stream.responder
        guard let conn = connection(responder.connection), conn.current === responder,
            !conn.closed
        else {
            stream.cancel()
            return
        }
        if let bytes = stream.sendBuffer { setSendBuffer(conn.fd, bytes) }
        let discardsBody = ResponseHead.hasNoBody(status: response.status, isHead: responder.isHead)
        // HTTP/1.0 has no chunked coding (RFC 9112 §7): the body ends when the connection closes.
        let chunked = responder.versionMinor >= 1 && !discardsBody
        let keepAlive = keepsAlive(responder, response) && (chunked || discardsBody)
        head.write(
            response, requestId: responder.requestId, framing: chunked ? .chunked : .none, keepAlive: keepAlive,
            versionMinor: responder.versionMinor)
        conn.stream = Connection.OpenStream(
            handle: stream, chunked: chunked, discardsBody: discardsBody, keepAlive: keepAlive,
            status: response.status)
        conn.lastActivity = now
        releaseBody(conn)
        core.streamCount.add(1, ordering: .relaxed)
        stream.markOpen()
        write(conn, head.bytes, body: [], bodyOffset: 0)
        if conn.closed { return }
        // A stream started while draining is ended like the others, but through the mailbox: the
        // handler that started it has not registered its `onShutdown` yet (it gets the stream only
        // when this returns), and ending it here sent the terminating chunk instead of its last word.
        if core.draining.load(ordering: .relaxed) { enqueue(.streamShutdown(stream)) }
    }

    /// Sends one chunk; the stream learns it drained here or, once the kernel took it, in `flush`.
    func streamWrite(_ stream: HTTPStream, _ bytes: [UInt8]) {
        guard let conn = streamConnection(stream), var open = conn.stream else { return }
        if open.discardsBody {
            stream.drained()
            return
        }
        open.bodyBytes += bytes.count
        conn.stream = open
        if open.chunked {
            writeChunk(conn, bytes)
        } else {
            write(conn, bytes, body: [], bodyOffset: 0)
        }
        if !conn.closed && conn.pending.isEmpty { stream.drained() }
    }

    /// Ends a stream: the terminating chunk (RFC 9112 §7.1), then the next request or the close.
    func streamFinish(_ stream: HTTPStream) {
        guard let conn = streamConnection(stream), let open = conn.stream else { return }
        if open.chunked { write(conn, Self.lastChunk, body: [], bodyOffset: 0) }
        if conn.closed { return }
        conn.stream = nil
        core.streamCount.subtract(1, ordering: .relaxed)
        if let responder = conn.current, core.logger.isEnabled(.info) {
            logAccess(responder, status: open.status, bytes: open.bodyBytes)
        }
        conn.current = nil
        conn.requestsServed += 1
        conn.lastActivity = now
        if !open.keepAlive || core.draining.load(ordering: .relaxed) { conn.closeAfterWrite = true }
        afterDrained(conn)
        process(conn)
    }

    private static let lastChunk = Array("0\r\n\r\n".utf8)

    /// Caps the socket's send buffer; a failure (a value out of range) leaves the kernel's
    /// autotuning, which only costs kernel memory, so it is not worth failing the answer.
    private func setSendBuffer(_ fd: Int32, _ bytes: Int) {
        var value = Int32(clamping: bytes)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// The connection `stream` is the current answer of, if it is still open.
    private func streamConnection(_ stream: HTTPStream) -> Connection? {
        let responder = stream.responder
        guard let conn = connection(responder.connection), !conn.closed,
            conn.stream?.handle === stream
        else { return nil }
        return conn
    }
}
