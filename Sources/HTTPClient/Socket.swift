import Glibc
import SystemSupport

/// The socket calls under `HTTPConnection`: non-blocking, so every wait is a `poll` with a deadline.
enum Socket {
    /// A connected non-blocking TCP socket to the first address of `host` that accepts before `deadline`.
    static func connect(host: String, port: Int, deadline: ContinuousClock.Instant) throws(HTTPClientError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw HTTPClientError(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }

        var lastError = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(
                info.pointee.ai_family,
                info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else {
                lastError = message(errno)
                continue
            }
            // Non-blocking connect, so an unreachable host cannot outlast the deadline.
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                return configured(fd)
            }
            if errno == EINPROGRESS, wait(for: Int16(POLLOUT), on: fd, until: deadline) {
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                if error == 0 { return configured(fd) }
                lastError = message(error)
            } else {
                lastError = errno == EINPROGRESS ? "timed out" : message(errno)
            }
            close(fd)
        }
        throw HTTPClientError(description: "cannot connect to \(host):\(port): \(lastError)")
    }

    /// Requests go out as soon as written: small writes must not wait for Nagle's algorithm.
    private static func configured(_ fd: Int32) -> Int32 {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    /// Writes every byte before `deadline`; `peer` names the other end in errors.
    static func sendAll(
        _ bytes: [UInt8], on fd: Int32, deadline: ContinuousClock.Instant, to peer: String
    ) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                send(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent >= 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EINTR {
                guard wait(for: Int16(POLLOUT), on: fd, until: deadline) else {
                    throw HTTPClientError(description: "timed out sending to \(peer)")
                }
            } else {
                throw HTTPClientError(description: "cannot send to \(peer): \(message(errno))")
            }
        }
    }

    /// Polls for `events` until `deadline`; false on timeout or error.
    static func wait(for events: Int16, on fd: Int32, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            // Rounded up, so a wait never wakes just before its deadline and spins.
            let milliseconds = min(UInt64(Int32.max), SystemClock.nanoseconds(remaining) / 1_000_000 + 1)
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let result = poll(&descriptor, 1, Int32(milliseconds))
            if result > 0 { return true }
            if result == 0 { return false }
            if errno != EINTR { return false }
        }
    }

    /// The C library's sentence for an `errno` value.
    static func message(_ code: Int32) -> String { String(cString: strerror(code)) }
}
