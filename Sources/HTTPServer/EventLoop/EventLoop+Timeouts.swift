extension EventLoop {
    /// One pass over all connections per scan interval: cheaper than a timer per connection.
    ///
    /// A parked request or an open stream has no timeout of its own (its handler decides when it
    /// ends); only output the client does not read for the idle timeout closes it. A body must
    /// arrive whole within the body timeout of its head, and without a pause of the idle timeout.
    func scanTimeouts() {
        if listenerPaused && listenFd >= 0 {
            listenerPaused = false
            epoll.add(listenFd, .listener)
        }
        let headTimeout = core.headTimeoutNanos
        let idleTimeout = core.idleTimeoutNanos
        let bodyTimeout = core.bodyTimeoutNanos
        for case let conn? in connections {
            if conn.lingering {
                if now >= conn.lingerDeadline { close(conn) }
            } else if !conn.pending.isEmpty {
                if now &- conn.lastActivity >= idleTimeout { close(conn) }
            } else if conn.current != nil {
                continue
            } else if conn.parser.isIdle {
                if conn.requestsServed == 0 {
                    if now &- conn.headStartedAt >= headTimeout { sendError(conn, 408, "no request received in time") }
                } else if now &- conn.lastActivity >= idleTimeout {
                    close(conn)
                }
            } else if conn.parser.isInHead {
                if now &- conn.headStartedAt >= headTimeout {
                    sendError(conn, 408, "request head not received in time")
                }
            } else if now &- conn.lastActivity >= idleTimeout {
                sendError(conn, 408, "request body not received in time")
            } else if conn.parser.isInBody && now &- conn.bodyStartedAt >= bodyTimeout {
                // A body trickling in never idles; its whole time is bounded too.
                sendError(conn, 408, "request body not received in time")
            }
        }
    }
}
