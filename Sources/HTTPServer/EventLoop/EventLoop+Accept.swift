internal import CHTTPShim
import Glibc

extension EventLoop {
    /// Accepts every waiting connection (up to 64 per wake-up, so one loop cannot starve its own).
    func acceptAll() {
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
            let address = String(decoding: peer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
            let target = claimLeastLoaded()
            if target !== self {
                if target.enqueue(.adopt(fd: fd, peer: address)) { continue }
                target.openCount.subtract(1, ordering: .relaxed)
                openCount.add(1, ordering: .relaxed)
            }
            register(fd, peer: address)
        }
    }

    /// Takes an accepted connection (already counted in `openCount`) into this loop.
    func register(_ fd: Int32, peer address: String) {
        serial &+= 1
        // Decided once per connection: a request from an untrusted peer never looks at its headers.
        let trusted = core.configuration.trustedProxies.contains(text: address)
        let conn = Connection(
            fd: fd, serial: serial, peerAddress: address, peerIsTrustedProxy: trusted, limits: core.limits, now: now)
        if Int(fd) >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: Int(fd) + 1 - connections.count + 64))
        }
        connections[Int(fd)] = conn
        let total = core.openConnections.add(1, ordering: .relaxed).newValue
        // Edge-triggered: register once for everything, never epoll_ctl(MOD) on the hot path.
        epoll.add(fd, .connection)
        if total > core.configuration.maxConnections || core.draining.load(ordering: .relaxed) {
            sendError(conn, 503, "the server is at its connection limit")
        }
    }

    /// Counts a new connection on the loop with the fewest open ones (this one on a tie) and
    /// returns that loop.
    ///
    /// The listener wakes one loop per connection (EPOLLEXCLUSIVE), and a loop takes up to 64 per
    /// wake-up: a burst of thousands of connections landed twice as many on one loop as on the
    /// other, and every fan-out to them then waited on the busier loop (issue 26: 10,000
    /// long-polls, one loop did 65% of the answering). A mailbox message per handed-over
    /// connection keeps the loops within one connection of each other. The count is claimed with a
    /// compare-and-swap from the value the choice was made on: two loops accepting at once each
    /// added to a count the other had just raised, and a burst of 90 ended 30/31/29.
    private func claimLeastLoaded() -> EventLoop {
        while true {
            var best = self
            var fewest = openCount.load(ordering: .relaxed)
            for peer in peers {
                guard let loop = peer.loop, loop !== self else { continue }
                let open = loop.openCount.load(ordering: .relaxed)
                if open < fewest {
                    best = loop
                    fewest = open
                }
            }
            if best.openCount.compareExchange(expected: fewest, desired: fewest + 1, ordering: .relaxed).exchanged {
                return best
            }
        }
    }
}
