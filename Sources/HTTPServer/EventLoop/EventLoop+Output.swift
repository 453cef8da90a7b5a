internal import CHTTPShim
import Glibc

extension EventLoop {
    /// Writes head+body with one writev; keeps what the kernel did not take and waits for EPOLLOUT.
    func write(_ conn: Connection, _ head: [UInt8], body: [UInt8], bodyOffset: Int) {
        if conn.closed { return }
        if !conn.pending.isEmpty {
            conn.pending.append((head, 0))
            if !body.isEmpty { conn.pending.append((body, bodyOffset)) }
            return
        }
        let total = head.count + body.count - bodyOffset
        let n = head.withUnsafeBytes { h in
            body.withUnsafeBytes { b in
                chttp_write2(
                    conn.fd, h.baseAddress, h.count, b.baseAddress.map { $0 + bodyOffset }, b.count - bodyOffset)
            }
        }
        guard let written = taken(conn, n, of: total) else { return }
        if written < head.count {
            conn.pending.append((head, written))
            if body.count > bodyOffset { conn.pending.append((body, bodyOffset)) }
        } else {
            conn.pending.append((body, bodyOffset + written - head.count))
        }
    }

    /// Writes `body` as one chunk (RFC 9112 §7.1) with one sendmsg of its size line, the caller's
    /// array and a CRLF: an event fanned out to thousands of streams is not copied for each.
    func writeChunk(_ conn: Connection, _ body: [UInt8]) {
        if conn.closed { return }
        withChunkSizeLine(body.count) { line in
            var written = 0
            if conn.pending.isEmpty {
                let n = body.withUnsafeBytes { b in
                    Self.crlf.withUnsafeBytes { c in
                        chttp_write3(
                            conn.fd, line.baseAddress, line.count, b.baseAddress, b.count, c.baseAddress, c.count)
                    }
                }
                guard let w = taken(conn, n, of: line.count + body.count + 2) else { return }
                written = w
            }
            // Behind (rare): the rest framed into one array, so `flush` sees one entry a chunk.
            var framed: [UInt8] = []
            framed.reserveCapacity(line.count + body.count + 2)
            framed.append(contentsOf: line)
            framed.append(contentsOf: body)
            framed.append(contentsOf: Self.crlf)
            conn.pending.append((framed, written))
        }
    }

    private static let crlf: [UInt8] = [0x0D, 0x0A]

    /// What a send's result `n` (bytes, or -errno) of `total` bytes leaves to keep: the bytes
    /// written when some are left, nil when all went or the connection closed on an error.
    private func taken(_ conn: Connection, _ n: Int, of total: Int) -> Int? {
        // Bytes the kernel took are the client reading: without this, a stream whose writes all went
        // straight in would date its idle clock from its last EPOLLOUT flush, and the first short
        // stall after a minute of healthy output closed it at once (issue 12's paused reader).
        if n > 0 { conn.lastActivity = now }
        if n == total {
            afterDrained(conn)
            return nil
        }
        if n >= 0 { return n }
        if -n == Int(EAGAIN) || -n == Int(EWOULDBLOCK) { return 0 }
        close(conn)
        return nil
    }

    /// Called on EPOLLOUT: pushes pending output; resumes the connection once it is drained.
    func flush(_ conn: Connection) {
        while let first = conn.pending.first {
            let second: (bytes: [UInt8], offset: Int) = conn.pending.count > 1 ? conn.pending[1] : ([], 0)
            let n = first.bytes.withUnsafeBytes { a in
                second.bytes.withUnsafeBytes { b in
                    chttp_write2(
                        conn.fd, a.baseAddress.map { $0 + first.offset }, a.count - first.offset,
                        b.baseAddress.map { $0 + second.offset }, b.count - second.offset)
                }
            }
            if n < 0 {
                if -n == Int(EAGAIN) || -n == Int(EWOULDBLOCK) { return }
                close(conn)
                return
            }
            if n == 0 { return }
            conn.lastActivity = now
            var left = n
            while left > 0, let f = conn.pending.first {
                let avail = f.bytes.count - f.offset
                if left >= avail {
                    left -= avail
                    conn.pending.removeFirst()
                } else {
                    conn.pending[0].offset += left
                    left = 0
                }
            }
        }
        afterDrained(conn)
        if !conn.closed && !conn.lingering && conn.current == nil { process(conn) }
        // Last, because the producer may write again from inside `drained()`.
        if !conn.closed, let stream = conn.stream { stream.handle.drained() }
    }

    func afterDrained(_ conn: Connection) {
        if conn.closeAfterWrite && conn.pending.isEmpty && conn.current == nil && !conn.lingering {
            beginLinger(conn)
        }
    }

    /// Half-closes and discards input until EOF, so an unread request body does not turn the close
    /// into a reset that destroys the response (RFC 9112 §9.6).
    private func beginLinger(_ conn: Connection) {
        conn.lingering = true
        _ = chttp_shutdown_write(conn.fd)
        conn.lingerDeadline = now &+ core.lingerNanos
        conn.parser = RequestParser(limits: core.limits)
        lingerRead(conn)
    }

    func lingerRead(_ conn: Connection) {
        for _ in 0..<64 {
            let n = chttp_read(conn.fd, scratch.baseAddress, scratch.count)
            if n > 0 { continue }
            if n == 0 || (-n != Int(EAGAIN) && -n != Int(EWOULDBLOCK)) { close(conn) }
            return
        }
    }

    /// Closes the socket and cancels an unanswered request or an unfinished stream.
    func close(_ conn: Connection) {
        if conn.closed { return }
        conn.closed = true
        _ = chttp_close(conn.fd)
        connections[Int(conn.fd)] = nil
        conn.pending = []
        releaseBody(conn)
        openCount.subtract(1, ordering: .relaxed)
        core.openConnections.subtract(1, ordering: .relaxed)
        if let stream = conn.stream {
            conn.stream = nil
            core.streamCount.subtract(1, ordering: .relaxed)
            if let responder = conn.current, core.logger.isEnabled(.info) {
                logAccess(responder, status: stream.status, bytes: stream.bodyBytes)
            }
            stream.handle.cancel()
        }
        if let responder = conn.current {
            conn.current = nil
            responder.cancel()
        }
    }
}
