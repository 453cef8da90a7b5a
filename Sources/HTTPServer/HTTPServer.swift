import CHTTPShim
import Dispatch
import Glibc
import Synchronization
import SystemSupport

/// Handles one request: respond at once or park the responder and respond later from any thread; never block.
public typealias HTTPHandler = @Sendable (HTTPRequest, HTTPResponder) -> Void

/// Errors from starting the server.
public enum HTTPServerError: Error, Sendable, Equatable {
    /// A system call failed with `errno`.
    case systemCall(String, Int32)
    /// `start()` was called twice or after shutdown.
    case alreadyStarted
}

/// Configuration and counters shared by all loops (immutable or atomic, hence `Sendable`).
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    let logger: Logger
    let handler: HTTPHandler
    let limits: RequestParser.Limits
    let openConnections = Atomic<Int>(0)
    let parkedCount = Atomic<Int>(0)
    let draining = Atomic<Bool>(false)
    let requestIdPrefix: String
    let scanIntervalNanos: UInt64
    let headTimeoutNanos: UInt64
    let idleTimeoutNanos: UInt64
    let lingerNanos: UInt64

    init(configuration: HTTPServerConfiguration, logger: Logger, handler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.logger = logger
        self.handler = handler
        limits = RequestParser.Limits(
            maxHeadBytes: configuration.maxHeadBytes, maxURIBytes: configuration.maxURIBytes,
            maxBodyBytes: configuration.maxBodyBytes)
        requestIdPrefix = String(UInt32.random(in: 0x1000_0000...UInt32.max), radix: 36) + "-"
        headTimeoutNanos = Self.nanos(configuration.headReadTimeout)
        idleTimeoutNanos = Self.nanos(configuration.idleTimeout)
        // Scan often enough that a timeout fires within ~25% of its value, at most every 250 ms.
        scanIntervalNanos = max(5_000_000, min(250_000_000, min(headTimeoutNanos, idleTimeoutNanos) / 4))
        lingerNanos = min(1_000_000_000, headTimeoutNanos)
    }

    /// A timeout in nanoseconds, at least 1 ms (a zero or negative timeout would spin the scan).
    static func nanos(_ d: Duration) -> UInt64 {
        UInt64(max(1_000_000, d.inNanoseconds))
    }
}

/// An HTTP/1.1 server on epoll event loops; one loop thread per core, no thread per connection.
public final class HTTPServer: Sendable {
    private enum Phase {
        case idle
        case running
        case stopping
        case stopped
    }

    private struct Lifecycle {
        var phase = Phase.idle
        var loops: [EventLoop] = []
        var threads: [pthread_t] = []
        var listenFd: Int32 = -1
        var hooks: [@Sendable () -> Void] = []
    }

    private let core: ServerCore
    private let lifecycle = Mutex(Lifecycle())
    private let port = Atomic<Int>(0)
    private let stopped = Mutex(false)
    // Loops live here too so metrics can be read without the lifecycle lock ordering issues.
    private let loopList = Mutex<[EventLoop]>([])

    /// Creates a server; nothing is bound until `start()`.
    public init(configuration: HTTPServerConfiguration, logger: Logger, handler: @escaping HTTPHandler) {
        core = ServerCore(configuration: configuration, logger: logger, handler: handler)
    }

    /// Binds, listens and starts the loop threads, then returns.
    public func start() throws {
        try lifecycle.withLock { (s: inout Lifecycle) throws(HTTPServerError) in
            guard s.phase == .idle else { throw HTTPServerError.alreadyStarted }
            let config = core.configuration
            // A peer closing early must surface as EPIPE, not kill the process.
            chttp_ignore_sigpipe()
            var soft: UInt64 = 0
            var hard: UInt64 = 0
            if chttp_raise_nofile(&soft, &hard) == 0 {
                core.logger.info(
                    "raised open-file limit", [("nofile_soft", String(soft)), ("nofile_hard", String(hard))])
            }
            let fd = chttp_listen(config.host, Int32(config.port), Int32(max(1024, config.backlog)))
            guard fd >= 0 else { throw HTTPServerError.systemCall("bind/listen \(config.host):\(config.port)", -fd) }
            var loops: [EventLoop] = []
            do throws(HTTPServerError) {
                for i in 0..<max(1, config.loopCount) { loops.append(try EventLoop(index: i, core: core)) }
            } catch {
                _ = chttp_close(fd)
                throw error
            }
            for loop in loops { loop.attachListener(fd) }
            s.listenFd = fd
            s.loops = loops
            loopList.withLock { $0 = loops }
            port.store(Int(chttp_local_port(fd)), ordering: .relaxed)
            for loop in loops { s.threads.append(Self.spawn { loop.run() }) }
            s.phase = .running
            core.logger.info(
                "listening",
                [
                    ("host", config.host), ("port", String(port.load(ordering: .relaxed))),
                    ("loops", String(loops.count)),
                ])
        }
    }

    /// The bound port (the real one when configured with port 0).
    public var localPort: Int { port.load(ordering: .relaxed) }

    /// Currently open client connections.
    public var openConnections: Int { core.openConnections.load(ordering: .relaxed) }

    /// Requests received since start.
    public var totalRequests: Int {
        loopList.withLock { loops in loops.reduce(0) { $0 + $1.requestCount.load(ordering: .relaxed) } }
    }

    /// Requests whose handler returned without responding and that still wait for a response.
    public var parkedRequests: Int { core.parkedCount.load(ordering: .relaxed) }

    /// Registers a hook run when shutdown begins, after the listener closed (answer parked requests here).
    public func onShutdown(_ hook: @escaping @Sendable () -> Void) {
        lifecycle.withLock { $0.hooks.append(hook) }
    }

    /// Stops accepting, runs hooks, lets in-flight requests finish within `gracePeriod`, then closes everything.
    ///
    /// Returns when the loop threads have exited; idempotent. Call it from outside the loop threads
    /// (a signal handler thread or `main`), never from a handler, which would wait for its own loop.
    public func shutdown(gracePeriod: Duration = .seconds(5)) {
        enum Action {
            case run(loops: [EventLoop], threads: [pthread_t], listenFd: Int32, hooks: [@Sendable () -> Void])
            case wait
            case done
        }
        let action = lifecycle.withLock { s -> Action in
            switch s.phase {
            case .idle:
                s.phase = .stopped
                return .done
            case .running:
                s.phase = .stopping
                return .run(loops: s.loops, threads: s.threads, listenFd: s.listenFd, hooks: s.hooks)
            case .stopping, .stopped:
                return .wait
            }
        }
        switch action {
        case .done:
            stopped.withLock { $0 = true }
            return
        case .wait:
            waitUntilStopped()
            return
        case .run(let loops, let threads, let listenFd, let hooks):
            core.logger.info("shutting down", [("open_connections", String(openConnections))])
            core.draining.store(true, ordering: .relaxed)
            let group = DispatchGroup()
            for loop in loops {
                group.enter()
                loop.enqueue(.stopAccepting(group))
            }
            group.wait()
            _ = chttp_close(listenFd)
            for hook in hooks { hook() }
            for loop in loops { loop.enqueue(.drain) }
            let deadline = chttp_monotonic_ns() &+ ServerCore.nanos(gracePeriod)
            while openConnections > 0 && chttp_monotonic_ns() < deadline { usleep(2000) }
            for loop in loops { loop.enqueue(.stop) }
            for thread in threads { pthread_join(thread, nil) }
            lifecycle.withLock { s in
                s.phase = .stopped
                s.threads = []
            }
            stopped.withLock { $0 = true }
            core.logger.info("stopped", [("requests", String(totalRequests))])
        }
    }

    /// Blocks until `shutdown` has finished.
    public func waitUntilStopped() {
        while !stopped.withLock({ $0 }) { usleep(5000) }
    }

    private final class ThreadBody {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private static func spawn(_ body: @escaping () -> Void) -> pthread_t {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        let rc = pthread_create(
            &thread, nil,
            { arg in
                let b = Unmanaged<ThreadBody>.fromOpaque(arg!).takeRetainedValue()
                b.body()
                return nil
            }, box)
        precondition(rc == 0, "pthread_create failed: \(rc)")
        return thread
    }
}
