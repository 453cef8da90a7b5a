internal import CHTTPShim
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
/// The loop's work is split by concern: accepting (`EventLoop+Accept`), reading and dispatching
/// requests (`+Requests`), answering (`+Responses`), socket output and closing (`+Output`),
/// streams (`+Streams`) and timeouts (`+Timeouts`).
///
/// Safety of `@unchecked Sendable`: `index`, `epoll`, `core` are immutable; `mailbox`, `threadId`
/// and the counters are synchronised (Mutex / Atomic); every other stored property is read and
/// written only on the loop's own thread inside `run()` (or before that thread starts); `peers` is
/// set before the threads start and only read after, and holds its loops weakly.
final class EventLoop: @unchecked Sendable {
    /// Work posted from other threads.
    enum Message {
        case respond(HTTPResponder, HTTPResponse)
        /// Work handed over by another thread that may answer `HTTPResponder` (written directly).
        case run(HTTPResponder, @Sendable () -> Void)
        case startStream(HTTPStream, HTTPResponse)
        case streamWrite(HTTPStream, [UInt8])
        case streamFinish(HTTPStream)
        /// Ends a stream started while draining, once the handler that started it has returned.
        case streamShutdown(HTTPStream)
        /// A connection another loop accepted for this one (already counted in `openCount`).
        case adopt(fd: Int32, peer: String)
        case stopAccepting(ThreadLatch)
        case drain
        case stop
    }

    let index: Int
    let epoll: Epoll
    let core: ServerCore
    private let mailbox = Mutex<[Message]>([])
    private let threadId = Atomic<UInt>(0)
    let openCount = Atomic<Int>(0)
    let requestCount = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    // Loop-thread state. `@exclusivity(unchecked)`: read and written on the loop's own thread only
    // (see the Sendable note above), never with two accesses to one property open at once; the
    // dynamic checks, which ran in every test and benchmark without a conflict, cost about 20
    // calls into the runtime per request (callgrind, issue 42).
    @exclusivity(unchecked) var connections: [Connection?] = []
    @exclusivity(unchecked) var listenFd: Int32 = -1
    @exclusivity(unchecked) var serial: UInt64 = 0
    let scratch: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) var head = ResponseHead()
    @exclusivity(unchecked) var accessLog = AccessLog()
    /// Monotonic nanoseconds at the start of this iteration.
    @exclusivity(unchecked) var now: UInt64 = 0
    /// The clock at the start of this iteration, as `HTTPRequest.receivedSinceOrigin` counts it.
    @exclusivity(unchecked) var clockNow: Duration = .zero
    @exclusivity(unchecked) private var lastScan: UInt64 = 0
    @exclusivity(unchecked) private var stopping = false
    @exclusivity(unchecked) var requestIdCounter: UInt64 = 0
    /// What every request id this loop makes starts with: the server's prefix and the loop's index.
    let requestIdLead: [UInt8]
    @exclusivity(unchecked) var loggedAcceptError = false
    @exclusivity(unchecked) var listenerPaused = false
    /// The responder whose handler is running right now (fast-path respond check).
    @exclusivity(unchecked) var currentResponder: HTTPResponder?
    /// Every loop of the server, this one included (weakly: loops would hold each other), set
    /// before the threads start; `acceptAll` hands a connection to the least loaded.
    @exclusivity(unchecked) var peers: [WeakLoop] = []

    init(index: Int, core: ServerCore) throws(HTTPServerError) {
        self.index = index
        self.core = core
        requestIdLead = Array((core.requestIdPrefix + String(index, radix: 36)).utf8)
        epoll = try Epoll()
        scratch = .allocate(byteCount: max(4096, core.configuration.readChunkSize), alignment: 16)
    }

    deinit {
        scratch.deallocate()
        epoll.close()
    }

    /// Whether the caller runs on this loop's thread.
    var isCurrentThread: Bool { threadId.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Registers the shared listening socket (before the thread starts).
    func attachListener(_ fd: Int32, peers: [EventLoop]) {
        listenFd = fd
        self.peers = peers.map(WeakLoop.init)
        // EPOLLEXCLUSIVE: one loop wakes per incoming connection instead of all of them.
        epoll.add(fd, .listener)
    }

    /// Posts a message and wakes the loop once per batch; false when the loop has stopped and
    /// the message was dropped.
    @discardableResult
    func enqueue(_ message: Message) -> Bool {
        let outcome = mailbox.withLock { box -> (queued: Bool, first: Bool) in
            // After the loop stopped nobody drains the mailbox; dropping avoids a responder→loop cycle.
            if stopped.load(ordering: .relaxed) { return (false, false) }
            box.append(message)
            return (true, box.count == 1)
        }
        if outcome.first { epoll.wake() }
        return outcome.queued
    }

    // MARK: - Loop

    /// Runs until a `.stop` message; returns after closing every connection.
    func run() {
        threadId.store(UInt(pthread_self()), ordering: .relaxed)
        let maxEvents: Int32 = 512
        let events = UnsafeMutablePointer<chttp_event>.allocate(capacity: Int(maxEvents))
        defer { events.deallocate() }
        let interval = core.scanIntervalNanos
        now = SystemClock.monotonicNanoseconds()
        lastScan = now
        while !stopping {
            let count = epoll.wait(events, capacity: maxEvents, timeoutMilliseconds: Int32(interval / 1_000_000))
            now = SystemClock.monotonicNanoseconds()
            clockNow = HTTPRequest.clockOrigin.duration(to: .now)
            accessLog.newIteration()
            head.refreshDate(wallSeconds: SystemClock.wallSeconds())
            for i in 0..<count {
                let event = events[i]
                if event.fd == epoll.wakeFd {
                    epoll.acknowledgeWake()
                    drainMailbox()
                } else if event.fd == listenFd {
                    acceptAll()
                } else if let conn = connection(event.fd) {
                    handle(conn, events: EpollEvents(rawValue: event.events))
                }
            }
            if now &- lastScan >= interval {
                lastScan = now
                scanTimeouts()
            }
            accessLog.flush()
        }
        for case let conn? in connections { close(conn) }
        accessLog.flush()
        stopped.store(true, ordering: .relaxed)
        mailbox.withLock { $0.removeAll() }
    }

    @inline(__always) func connection(_ fd: Int32) -> Connection? {
        let i = Int(fd)
        return i < connections.count ? connections[i] : nil
    }

    /// The connection in `slot` if it is still the incarnation the slot names.
    @inline(__always) func connection(_ slot: ConnectionSlot) -> Connection? {
        guard let conn = connection(slot.fd), conn.serial == slot.serial else { return nil }
        return conn
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
                if let conn = connection(responder.connection) { process(conn) }
            case .run(let responder, let work):
                currentResponder = responder
                work()
                currentResponder = nil
                if let conn = connection(responder.connection) { process(conn) }
            case .startStream(let stream, let response):
                openStream(stream, response)
            case .streamWrite(let stream, let bytes):
                streamWrite(stream, bytes)
            case .streamFinish(let stream):
                streamFinish(stream)
            case .streamShutdown(let stream):
                stream.serverShutdown()
            case .adopt(let fd, let peer):
                register(fd, peer: peer)
            case .stopAccepting(let latch):
                if listenFd >= 0 {
                    if !listenerPaused { epoll.remove(listenFd) }
                    listenFd = -1
                }
                latch.countDown()
            case .drain:
                for case let conn? in connections {
                    if let stream = conn.stream {
                        stream.handle.serverShutdown()
                    } else if conn.current == nil && conn.pending.isEmpty && (conn.parser.isIdle || conn.lingering) {
                        close(conn)
                    }
                }
            case .stop:
                stopping = true
            }
        }
    }

    /// A fresh request id: the server's prefix, this loop's index and its counter, in base 36.
    func nextRequestId() -> String {
        requestIdCounter &+= 1
        return Self.requestId(lead: requestIdLead, counter: requestIdCounter)
    }

    /// `lead` followed by `counter` in base 36 (lowercase), as a `String`.
    ///
    /// Written into a stack buffer, so an id of up to 15 bytes becomes a `String` without an
    /// allocation: two `String(_:radix:)` and their concatenation cost ~1,500 instructions a
    /// request (callgrind, issue 42).
    static func requestId(lead: [UInt8], counter: UInt64) -> String {
        // 13 base-36 digits hold any UInt64.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: lead.count + 13) { buffer in
            var count = 0
            for byte in lead {
                buffer[count] = byte
                count += 1
            }
            var value = counter
            var digits = 1
            var probe = value
            while probe >= 36 {
                probe /= 36
                digits += 1
            }
            var position = count + digits
            repeat {
                position -= 1
                let digit = UInt8(value % 36)
                buffer[position] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                value /= 36
            } while value > 0
            count += digits
            return String(decoding: UnsafeMutableBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
        }
    }
}

/// A loop as its peers know it, without keeping it alive.
struct WeakLoop {
    weak var loop: EventLoop?
}
