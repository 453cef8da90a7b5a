import CHTTPShim
import Dispatch
import Glibc
import Synchronization
import SystemSupport

/// One epoll-driven I/O thread owning a set of connections.
///
/// Threading model: the server runs `loopCount` of these; all share one listening socket
/// (EPOLLEXCLUSIVE, so one loop wakes per connection) and each owns the connections it accepted
/// for their whole life. Sockets are edge-triggered and registered once. Handlers run on the loop
/// thread; responses from other threads go through `mailbox` + eventfd, drained in one batch per
/// wake-up. Timeouts are one scan per interval (epoll_wait's timeout), not a timer per connection.
///
/// Safety of `@unchecked Sendable`: `index`, `epfd`, `wakeFd`, `core` are immutable; `mailbox`
/// and `threadId` are synchronised (Mutex / Atomic); every other stored property is read and
/// written only on the loop's own thread inside `run()` (or before that thread starts).
final class EventLoop: @unchecked Sendable {
    /// Work posted from other threads.
    enum Message {
        case respond(HTTPResponder, HTTPResponse)
        case stopAccepting(DispatchGroup)
        case drain
        case stop
    }

    let index: Int
    let epfd: Int32
    let wakeFd: Int32
    let core: ServerCore
    private let mailbox = Mutex<[Message]>([])
    private let threadId = Atomic<UInt>(0)
    let openCount = Atomic<Int>(0)
    let requestCount = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    // Loop-thread state.
    private var connections: [Connection?] = []
    private var listenFd: Int32 = -1
    private var serial: UInt64 = 0
    private let scratch: UnsafeMutableRawBufferPointer
    private var headBuffer: [UInt8] = []
    private var logBuffer: [UInt8] = []
    private var dateBytes: [UInt8] = []
    private var dateSecond: Int64 = -1
    private var now: UInt64 = 0
    private var clockNow: ContinuousClock.Instant = .now
    private var lastScan: UInt64 = 0
    private var stopping = false
    private var requestIdCounter: UInt64 = 0
    private var loggedAcceptError = false
    private var listenerPaused = false
    /// Access-log timestamp, formatted at most once per loop iteration.
    private var logTimestamp: [UInt8] = []
    /// The responder whose handler is running right now (fast-path respond check).
    private(set) var currentResponder: HTTPResponder?

    init(index: Int, core: ServerCore) throws(HTTPServerError) {
        self.index = index
        self.core = core
        epfd = chttp_epoll_create()
        wakeFd = chttp_eventfd()
        guard epfd >= 0, wakeFd >= 0 else {
            if epfd >= 0 { _ = chttp_close(epfd) }
            if wakeFd >= 0 { _ = chttp_close(wakeFd) }
            throw HTTPServerError.systemCall("epoll/eventfd", chttp_errno())
        }
        _ = chttp_epoll_add(epfd, wakeFd, CHTTP_EPOLLIN)
        scratch = .allocate(byteCount: max(4096, core.configuration.readChunkSize), alignment: 16)
        headBuffer.reserveCapacity(512)
    }

    deinit {
        scratch.deallocate()
        _ = chttp_close(epfd)
        _ = chttp_close(wakeFd)
    }

    /// Whether the caller runs on this loop's thread.
    var isCurrentThread: Bool { threadId.load(ordering: .relaxed) == chttp_thread_id() }

    /// Registers the shared listening socket (before the thread starts).
    func attachListener(_ fd: Int32) {
        listenFd = fd
        // EPOLLEXCLUSIVE: one loop wakes per incoming connection instead of all of them.
        _ = chttp_epoll_add(epfd, fd, CHTTP_EPOLLIN | CHTTP_EPOLLEXCLUSIVE)
    }

    /// Posts a message and wakes the loop once per batch.
    func enqueue(_ message: Message) {
        let first = mailbox.withLock { box -> Bool in
            // After the loop stopped nobody drains the mailbox; dropping avoids a responder→loop cycle.
            if stopped.load(ordering: .relaxed) { return false }
            box.append(message)
            return box.count == 1
        }
        if first { chttp_eventfd_signal(wakeFd) }
    }

    // MARK: - Loop

    /// Runs until a `.stop` message; returns after closing every connection.
    func run() {
        threadId.store(chttp_thread_id(), ordering: .relaxed)
        "recents-loop-\(index)".withCString { chttp_set_thread_name($0) }
        let maxEvents: Int32 = 512
        let events = UnsafeMutablePointer<chttp_event>.allocate(capacity: Int(maxEvents))
        defer { events.deallocate() }
        let interval = core.scanIntervalNanos
        now = chttp_monotonic_ns()
        lastScan = now
        while !stopping {
            let n = chttp_epoll_wait(epfd, events, maxEvents, Int32(interval / 1_000_000))
            now = chttp_monotonic_ns()
            clockNow = .now
            logTimestamp.removeAll(keepingCapacity: true)
            refreshDate()
            if n > 0 {
                for i in 0..<Int(n) {
                    let ev = events[i]
                    if ev.fd == wakeFd {
                        chttp_eventfd_drain(wakeFd)
                        drainMailbox()
                    } else if ev.fd == listenFd {
                        acceptAll()
                    } else if let conn = connection(ev.fd) {
                        handle(conn, events: ev.events)
                    }
                }
            }
            if now &- lastScan >= interval {
                lastScan = now
                scanTimeouts()
            }
            flushLog()
        }
        for case let conn? in connections { close(conn) }
        flushLog()
        stopped.store(true, ordering: .relaxed)
        mailbox.withLock { $0.removeAll() }
    }

    @inline(__always) private func connection(_ fd: Int32) -> Connection? {
        let i = Int(fd)
        return i < connections.count ? connections[i] : nil
    }

    private func drainMailbox() {
        let batch = mailbox.withLock { box -> [Message] in
            let b = box
            box.removeAll()
            return b
        }
        for message in batch {
            switch message {
            case .respond(let responder, let response):
                complete(responder, response)
                if let conn = connection(responder.fd), conn.serial == responder.serial { process(conn) }
            case .stopAccepting(let group):
                if listenFd >= 0 {
                    if !listenerPaused { _ = chttp_epoll_del(epfd, listenFd) }
                    listenFd = -1
                }
                group.leave()
            case .drain:
                for case let conn? in connections where conn.current == nil && conn.pending.isEmpty {
                    if conn.parser.isIdle || conn.lingering { close(conn) }
                }
            case .stop:
                stopping = true
            }
        }
    }

    // MARK: - Accepting

    private func acceptAll() {
        let limits = core.limits
        for _ in 0..<64 {
            let fd = chttp_accept(listenFd)
            if fd < 0 {
                let err = -fd
                if err == EAGAIN || err == EWOULDBLOCK || err == EINTR || err == ECONNABORTED { return }
                if !loggedAcceptError {
                    loggedAcceptError = true
                    core.logger.error("accept failed", [("errno", String(err))])
                }
                // Out of descriptors (EMFILE/ENFILE): the level-triggered listener would spin, so stop
                // watching it until the next timeout scan.
                _ = chttp_epoll_del(epfd, listenFd)
                listenerPaused = true
                return
            }
            serial &+= 1
            let conn = Connection(fd: fd, serial: serial, limits: limits, now: now)
            if Int(fd) >= connections.count {
                connections.append(contentsOf: repeatElement(nil, count: Int(fd) + 1 - connections.count + 64))
            }
            connections[Int(fd)] = conn
            openCount.add(1, ordering: .relaxed)
            let total = core.openConnections.add(1, ordering: .relaxed).newValue
            // Edge-triggered: register once for everything, never epoll_ctl(MOD) on the hot path.
            _ = chttp_epoll_add(
                epfd, fd, CHTTP_EPOLLIN | CHTTP_EPOLLOUT | CHTTP_EPOLLRDHUP | CHTTP_EPOLLET)
            if total > core.configuration.maxConnections || core.draining.load(ordering: .relaxed) {
                sendError(conn, 503, "the server is at its connection limit")
            }
        }
    }

    // MARK: - Events

    private func handle(_ conn: Connection, events: UInt32) {
        if events & CHTTP_EPOLLERR != 0 {
            close(conn)
            return
        }
        if events & (CHTTP_EPOLLIN | CHTTP_EPOLLRDHUP | CHTTP_EPOLLHUP) != 0 {
            conn.readable = true
            if events & (CHTTP_EPOLLRDHUP | CHTTP_EPOLLHUP) != 0 { conn.hangupSeen = true }
        }
        if events & CHTTP_EPOLLOUT != 0 && !conn.pending.isEmpty {
            flush(conn)
            if conn.closed { return }
        }
        if conn.lingering {
            lingerRead(conn)
            return
        }
        if conn.current != nil {
            // A parked request whose client hung up is released at once (the client may half-close,
            // but a half-closed long-poll has nobody left to read the answer).
            if conn.hangupSeen { close(conn) }
            return
        }
        process(conn)
    }

    /// Parses and dispatches buffered requests one at a time until blocked.
    private func process(_ conn: Connection) {
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

    private static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

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
        let responder = HTTPResponder(
            loop: self, fd: conn.fd, serial: conn.serial, request: request, keepAlive: keepAlive, startNanos: now)
        conn.current = responder
        currentResponder = responder
        core.handler(request, responder)
        currentResponder = nil
        if conn.current === responder && !conn.closed {
            responder.markParkedIfPending()
            if conn.peerClosed || conn.hangupSeen { close(conn) }
        }
    }

    private func requestId(for request: HTTPRequest) -> String {
        if let given = request.headers["X-Request-Id"], !given.isEmpty, given.utf8.count <= 128,
            given.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E })
        {
            return given
        }
        requestIdCounter &+= 1
        return core.requestIdPrefix + String(index, radix: 36) + String(requestIdCounter, radix: 36)
    }

    // MARK: - Responses

    /// Writes `response` for `responder` if its connection is still the one it belongs to.
    func complete(_ responder: HTTPResponder, _ response: HTTPResponse) {
        guard let conn = connection(responder.fd), conn.serial == responder.serial, conn.current === responder
        else { return }
        conn.current = nil
        conn.requestsServed += 1
        conn.lastActivity = now
        var keepAlive = responder.keepAlive && !core.draining.load(ordering: .relaxed)
        if keepAlive, let c = response.headers["Connection"], c.lowercased().contains("close") { keepAlive = false }
        let status = response.status
        let noBody = responder.isHead || status == 204 || status == 304 || (100..<200).contains(status)
        serializeHead(
            response, requestId: responder.requestId, keepAlive: keepAlive, versionMinor: responder.versionMinor)
        let bodyBytes = noBody ? 0 : response.body.count
        if core.logger.isEnabled(.info) {
            logAccess(responder, status: status, bytes: bodyBytes)
        }
        if !keepAlive { conn.closeAfterWrite = true }
        let head = headBuffer
        write(conn, head, body: noBody ? [] : response.body, bodyOffset: 0)
    }

    private func serializeHead(_ response: HTTPResponse, requestId: String, keepAlive: Bool, versionMinor: Int) {
        let status = response.status
        headBuffer.removeAll(keepingCapacity: true)
        headBuffer.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(status, to: &headBuffer)
        headBuffer.append(0x20)
        headBuffer.append(contentsOf: HTTPResponse.reasonPhrase(status).utf8)
        headBuffer.append(contentsOf: "\r\nDate: ".utf8)
        headBuffer.append(contentsOf: dateBytes)
        headBuffer.append(contentsOf: "\r\nServer: recents\r\n".utf8)
        // RFC 9110 §8.6: no Content-Length on 1xx/204; on 304 only if it describes the selected representation.
        if !(status == 204 || (100..<200).contains(status) || (status == 304 && response.body.isEmpty)) {
            headBuffer.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(response.body.count, to: &headBuffer)
            headBuffer.append(contentsOf: "\r\n".utf8)
        }
        headBuffer.append(contentsOf: "X-Request-Id: ".utf8)
        headBuffer.append(contentsOf: requestId.utf8)
        headBuffer.append(contentsOf: "\r\n".utf8)
        for field in response.headers {
            if Self.isServerOwned(field.name) { continue }
            headBuffer.append(contentsOf: field.name.utf8)
            headBuffer.append(contentsOf: ": ".utf8)
            for c in field.value.utf8 where c != 0x0D && c != 0x0A { headBuffer.append(c) }
            headBuffer.append(contentsOf: "\r\n".utf8)
        }
        if !keepAlive {
            headBuffer.append(contentsOf: "Connection: close\r\n".utf8)
        } else if versionMinor == 0 {
            // RFC 9112 §9.3: an HTTP/1.0 client only keeps the connection if told so.
            headBuffer.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        headBuffer.append(contentsOf: "\r\n".utf8)
    }

    private static func isServerOwned(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: return HTTPHeaders.equalsIgnoringCase(name, "Date")
        case 6: return HTTPHeaders.equalsIgnoringCase(name, "Server")
        case 10: return HTTPHeaders.equalsIgnoringCase(name, "Connection")
        case 12: return HTTPHeaders.equalsIgnoringCase(name, "X-Request-Id")
        case 14: return HTTPHeaders.equalsIgnoringCase(name, "Content-Length")
        case 17: return HTTPHeaders.equalsIgnoringCase(name, "Transfer-Encoding")
        default: return false
        }
    }

    /// Answers with a server problem and closes the connection afterwards.
    private func sendError(_ conn: Connection, _ status: Int, _ detail: String) {
        var response = HTTPResponse.serverProblem(status, detail: detail)
        for header in core.configuration.errorHeaders { response.headers.add(header.name, header.value) }
        requestIdCounter &+= 1
        let id = core.requestIdPrefix + String(index, radix: 36) + String(requestIdCounter, radix: 36)
        serializeHead(response, requestId: id, keepAlive: false, versionMinor: 1)
        if core.logger.isEnabled(.info) {
            appendLogLine(method: "-", path: "-", status: status, bytes: response.body.count, durationNanos: 0, id: id)
        }
        conn.closeAfterWrite = true
        let head = headBuffer
        write(conn, head, body: response.body, bodyOffset: 0)
    }

    /// Writes head+body with one writev; keeps what the kernel did not take and waits for EPOLLOUT.
    private func write(_ conn: Connection, _ head: [UInt8], body: [UInt8], bodyOffset: Int) {
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
        if n == total {
            afterDrained(conn)
            return
        }
        let written: Int
        if n >= 0 {
            written = n
        } else if -n == Int(EAGAIN) || -n == Int(EWOULDBLOCK) {
            written = 0
        } else {
            close(conn)
            return
        }
        if written < head.count {
            conn.pending.append((head, written))
            if body.count > bodyOffset { conn.pending.append((body, bodyOffset)) }
        } else {
            conn.pending.append((body, bodyOffset + written - head.count))
        }
    }

    /// Called on EPOLLOUT: pushes pending output; resumes the connection once it is drained.
    private func flush(_ conn: Connection) {
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
    }

    private func afterDrained(_ conn: Connection) {
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

    private func lingerRead(_ conn: Connection) {
        for _ in 0..<64 {
            let n = chttp_read(conn.fd, scratch.baseAddress, scratch.count)
            if n > 0 { continue }
            if n == 0 || (-n != Int(EAGAIN) && -n != Int(EWOULDBLOCK)) { close(conn) }
            return
        }
    }

    /// Closes the socket and cancels an unanswered request.
    func close(_ conn: Connection) {
        if conn.closed { return }
        conn.closed = true
        _ = chttp_close(conn.fd)
        connections[Int(conn.fd)] = nil
        conn.pending = []
        openCount.subtract(1, ordering: .relaxed)
        core.openConnections.subtract(1, ordering: .relaxed)
        if let responder = conn.current {
            conn.current = nil
            responder.cancel()
        }
    }

    // MARK: - Timers

    /// One pass over all connections per scan interval: cheaper than a timer per connection.
    private func scanTimeouts() {
        if listenerPaused && listenFd >= 0 {
            listenerPaused = false
            _ = chttp_epoll_add(epfd, listenFd, CHTTP_EPOLLIN | CHTTP_EPOLLEXCLUSIVE)
        }
        let headTimeout = core.headTimeoutNanos
        let idleTimeout = core.idleTimeoutNanos
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
            }
        }
    }

    // MARK: - Date and logging

    private func refreshDate() {
        var sec: Int64 = 0
        var msec: Int32 = 0
        chttp_realtime(&sec, &msec)
        if sec == dateSecond { return }
        dateSecond = sec
        dateBytes = Array(HTTPDate.imfFixdate(sec).utf8)
    }

    private func logAccess(_ responder: HTTPResponder, status: Int, bytes: Int) {
        appendLogLine(
            method: responder.method.rawValue, path: responder.path, status: status, bytes: bytes,
            durationNanos: chttp_monotonic_ns() &- responder.startNanos, id: responder.requestId)
    }

    /// Appends one access-log line straight into the loop's byte buffer: at tens of thousands of
    /// requests a second, building it as a String cost about half the server's throughput.
    private func appendLogLine(method: String, path: String, status: Int, bytes: Int, durationNanos: UInt64, id: String)
    {
        if logTimestamp.isEmpty { logTimestamp = Array(Logger.timestamp().utf8) }
        appendLog("ts=")
        logBuffer.append(contentsOf: logTimestamp)
        appendLog(" level=info msg=request method=")
        appendLogValue(method)
        appendLog(" path=")
        appendLogValue(path)
        appendLog(" status=")
        appendDecimal(status, to: &logBuffer)
        appendLog(" bytes=")
        appendDecimal(bytes, to: &logBuffer)
        appendLog(" duration_ms=")
        let micros = Int(durationNanos / 1000)
        appendDecimal(micros / 1000, to: &logBuffer)
        logBuffer.append(UInt8(ascii: "."))
        let fraction = micros % 1000
        if fraction < 100 { logBuffer.append(UInt8(ascii: "0")) }
        if fraction < 10 { logBuffer.append(UInt8(ascii: "0")) }
        appendDecimal(fraction, to: &logBuffer)
        appendLog(" request_id=")
        appendLogValue(id)
        logBuffer.append(UInt8(ascii: "\n"))
        if logBuffer.count > 256 * 1024 { flushLog() }
    }

    private func appendLog(_ text: StaticString) {
        logBuffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A logfmt value: the bytes as they are when nothing needs quoting (the common case), else
    /// the logger's quoting.
    private func appendLogValue(_ value: String) {
        let plain =
            !value.isEmpty
            && !value.utf8.contains { $0 <= 0x20 || $0 == 0x22 || $0 == 0x3D || $0 == 0x5C || $0 >= 0x7F }
        if plain {
            logBuffer.append(contentsOf: value.utf8)
        } else {
            var quoted = ""
            Logger.appendValue(value, to: &quoted)
            logBuffer.append(contentsOf: quoted.utf8)
        }
    }

    /// One write(2) per loop iteration for all buffered access-log lines.
    private func flushLog() {
        if logBuffer.isEmpty { return }
        logBuffer.withUnsafeBufferPointer { Logger.writeAll(2, $0) }
        logBuffer.removeAll(keepingCapacity: logBuffer.capacity <= 1024 * 1024)
    }
}
