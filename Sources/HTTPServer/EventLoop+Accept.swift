import CHTTPShim
import Glibc

extension EventLoop {
    /// Accepts every waiting connection (up to 64 per wake-up, so one loop cannot starve its own).
    func acceptAll() {
        let limits = core.limits
        for _ in 0..<64 {
            // INET6_ADDRSTRLEN is 46; a String made once per connection, shared by its requests.
            var peer = [CChar](repeating: 0, count: 64)
            let fd = chttp_accept(listenFd, &peer, peer.count)
            if fd < 0 {
                let err = -fd
                if err == EAGAIN || err == EWOULDBLOCK || err == EINTR || err == ECONNABORTED { return }
                if !loggedAcceptError {
                    loggedAcceptError = true
                    core.logger.error("accept failed", [("errno", String(err))])
                }
                // Out of descriptors (EMFILE/ENFILE): the level-triggered listener would spin, so stop
                // watching it until the next timeout scan.
                epoll.remove(listenFd)
                listenerPaused = true
                return
            }
            serial &+= 1
            let address = String(decoding: peer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
            let conn = Connection(fd: fd, serial: serial, peerAddress: address, limits: limits, now: now)
            if Int(fd) >= connections.count {
                connections.append(contentsOf: repeatElement(nil, count: Int(fd) + 1 - connections.count + 64))
            }
            connections[Int(fd)] = conn
            openCount.add(1, ordering: .relaxed)
            let total = core.openConnections.add(1, ordering: .relaxed).newValue
            // Edge-triggered: register once for everything, never epoll_ctl(MOD) on the hot path.
            epoll.add(fd, .connection)
            if total > core.configuration.maxConnections || core.draining.load(ordering: .relaxed) {
                sendError(conn, 503, "the server is at its connection limit")
            }
        }
    }
}
