internal import CHTTPShim
import Glibc
import Synchronization
import SystemSupport

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
        var threads: [JoinableThread] = []
        var listenFd: Int32 = -1
        var hooks: [@Sendable () -> Void] = []
    }

    private let core: ServerCore
    private let lifecycle = Mutex(Lifecycle())
    private let port = Atomic<Int>(0)
    private let stopped = ThreadLatch()
    // Loops live here too so metrics can be read without the lifecycle lock ordering issues.
    private let loopList = Mutex<[EventLoop]>([])

    /// Creates a server; nothing is bound until `start()`.
    public init(configuration: HTTPServerConfiguration, logger: Logger, handler: @escaping HTTPHandler) {
        core = ServerCore(configuration: configuration, logger: logger, handler: handler)
    }

    /// Binds, listens and starts the loop threads, then returns.
    /// - Throws: `HTTPServerError`, e.g. `127.0.0.1:8080: address already in use`.
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
            guard fd >= 0 else { throw HTTPServerError.system("\(config.host):\(config.port)", code: -fd) }
            var loops: [EventLoop] = []
            do throws(HTTPServerError) {
                for i in 0..<max(1, config.loopCount) { loops.append(try EventLoop(index: i, core: core)) }
            } catch {
                _ = chttp_close(fd)
                throw error
            }
            for loop in loops { loop.attachListener(fd, peers: loops) }
            s.listenFd = fd
            s.loops = loops
            loopList.withLock { $0 = loops }
            port.store(Int(chttp_local_port(fd)), ordering: .relaxed)
            s.threads = loops.map { loop in JoinableThread.start(name: "recents-loop-\(loop.index)") { loop.run() } }
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

    /// Open connections on each loop, in loop order.
    var connectionsPerLoop: [Int] {
        loopList.withLock { loops in loops.map { $0.openCount.load(ordering: .relaxed) } }
    }

    /// Requests received since start.
    public var totalRequests: Int {
        loopList.withLock { loops in loops.reduce(0) { $0 + $1.requestCount.load(ordering: .relaxed) } }
    }

    /// Requests whose handler returned without responding and that still wait for a response.
    public var parkedRequests: Int { core.parkedCount.load(ordering: .relaxed) }

    /// Streams started and neither finished nor cancelled.
    public var openStreams: Int { core.streamCount.load(ordering: .relaxed) }

    /// Registers a hook run when shutdown begins, after the listener closed (answer parked requests here).
    public func onShutdown(_ hook: @escaping @Sendable () -> Void) {
        lifecycle.withLock { $0.hooks.append(hook) }
    }

    /// Stops accepting, runs hooks, ends open streams, lets in-flight requests finish within
    /// `gracePeriod`, then closes everything.
    ///
    /// Open streams are ended right after the hooks ran: a stream with an `HTTPStream.onShutdown`
    /// handler gets it called (it writes a last chunk and calls `finish()`), any other is
    /// finished by the server (terminating chunk, then the connection closes).
    ///
    /// Returns when the loop threads have exited; idempotent. Call it from outside the loop threads
    /// (a signal handler thread or `main`), never from a handler, which would wait for its own loop.
    public func shutdown(gracePeriod: Duration = .seconds(5)) {
        enum Action {
            case run(loops: [EventLoop], threads: [JoinableThread], listenFd: Int32, hooks: [@Sendable () -> Void])
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
            stopped.countDown()
        case .wait:
            stopped.wait()
        case .run(let loops, let threads, let listenFd, let hooks):
            core.logger.info("shutting down", [("open_connections", String(openConnections))])
            core.draining.store(true, ordering: .relaxed)
            let listenersDetached = ThreadLatch(count: loops.count)
            for loop in loops { loop.enqueue(.stopAccepting(listenersDetached)) }
            listenersDetached.wait()
            _ = chttp_close(listenFd)
            for hook in hooks { hook() }
            for loop in loops { loop.enqueue(.drain) }
            let deadline = SystemClock.monotonicNanoseconds() &+ ServerCore.nanos(gracePeriod)
            // Connections close on the loops at their own pace; a short poll is simpler than a
            // signal from every close, and shutdown happens once.
            while openConnections > 0 && SystemClock.monotonicNanoseconds() < deadline { usleep(2000) }
            for loop in loops { loop.enqueue(.stop) }
            for thread in threads { thread.join() }
            lifecycle.withLock { s in
                s.phase = .stopped
                s.threads = []
            }
            stopped.countDown()
            core.logger.info("stopped", [("requests", String(totalRequests))])
        }
    }

    /// Blocks until `shutdown` has finished.
    public func waitUntilStopped() { stopped.wait() }
}
