import Glibc
import Synchronization
import SystemSupport
import Testing

@testable import HTTPServer

/// Streams "hello", 300 × "x" and finishes, from another thread, on `/stream`; echoes the path elsewhere.
private let streamingHandler: HTTPHandler = { request, responder in
    guard request.path == "/stream" else {
        responder.respond(HTTPResponse(status: 200, body: Array(request.path.utf8)))
        return
    }
    let stream = responder.startStream(status: 200, headers: ["Content-Type": "text/event-stream"])
    _ = JoinableThread.start(name: "test-producer") {
        _ = writeWaiting(stream, Array("hello".utf8))
        _ = writeWaiting(stream, [UInt8](repeating: 0x78, count: 300))
        stream.finish()
    }
}

/// Streaming responses over real sockets: framing, backpressure, cancellation, shutdown.
@Suite(.serialized) struct StreamTests {
    @Test func chunksAreFramedByteForByteAndTheConnectionIsReusedAfterFinish() throws {
        try withServer(handler: streamingHandler) { server, port in
            let c = try #require(TestClient(port: port))
            // The second request is pipelined: it waits until the stream finished.
            c.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\nGET /after HTTP/1.1\r\nHost: h\r\n\r\n")
            let head = try #require(c.readHead())
            #expect(head.status == 200)
            #expect(head.header("Transfer-Encoding") == "chunked")
            #expect(head.header("Content-Length") == nil)
            #expect(head.header("Connection") == nil)
            #expect(head.header("Content-Type") == "text/event-stream")
            let expected =
                Array("5\r\nhello\r\n12c\r\n".utf8) + [UInt8](repeating: 0x78, count: 300) + Array("\r\n0\r\n\r\n".utf8)
            #expect(c.readBytes(expected.count) == expected)
            let after = try #require(c.readResponse())
            #expect(after.bodyString == "/after")
            #expect(waitUntil { server.openStreams == 0 })
            #expect(server.openConnections == 1)
        }
    }

    @Test func aParkedRequestCanStartItsStreamFromAnotherThread() throws {
        let parked = Box<HTTPResponder?>(nil)
        let handler: HTTPHandler = { _, responder in parked.update { $0 = responder } }
        try withServer(handler: handler) { server, port in
            let c = try #require(TestClient(port: port))
            c.send("GET /later HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(waitUntil { server.parkedRequests == 1 })
            let responder = try #require(parked.get())
            let stream = responder.startStream(status: 201, headers: ["X-Kind": "late"])
            #expect(server.parkedRequests == 0)
            responder.respond(HTTPResponse(status: 500))  // ignored: the stream is the answer
            #expect(writeWaiting(stream, Array("ab".utf8)))
            stream.finish()
            #expect(!stream.write(Array("after finish".utf8)))
            let head = try #require(c.readHead())
            #expect(head.status == 201)
            #expect(head.header("X-Kind") == "late")
            #expect(c.readChunkedBody()?.body == Array("ab".utf8))
            #expect(responder.startStream(status: 200).isCancelled)
        }
    }

    @Test func http10StreamsAreCloseDelimited() throws {
        try withServer(handler: streamingHandler) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("GET /stream HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let head = try #require(c.readHead())
            #expect(head.header("Transfer-Encoding") == nil)
            #expect(head.header("Connection") == "close")
            #expect(c.readBytes(305) == Array("hello".utf8) + [UInt8](repeating: 0x78, count: 300))
            #expect(c.waitForClose())
            #expect(c.unread.isEmpty)
        }
    }

    @Test func aClientThatStopsReadingStallsTheWriterUntilItReadsAgain() throws {
        let streamBox = Box<HTTPStream?>(nil)
        let handler: HTTPHandler = { _, responder in
            streamBox.update { $0 = responder.startStream(status: 200) }
        }
        try withServer(handler: handler) { _, port in
            let c = try #require(TestClient(port: port, receiveTimeout: 10))
            c.setReceiveBuffer(16 * 1024)
            c.send("GET /firehose HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(c.readHead()?.status == 200)
            #expect(waitUntil { streamBox.get() != nil })
            let stream = try #require(streamBox.get())
            let chunk = [UInt8](repeating: 0x61, count: 64 * 1024)
            let progress = Box((written: 0, stalled: false, resumed: false))
            let producer = JoinableThread.start(name: "test-firehose") {
                // Write until a refused write is not followed by a drain within a second: the
                // socket buffers are full because nobody reads.
                while progress.get().written < 4096 {
                    if stream.write(chunk) {
                        progress.update { $0.written += 1 }
                        continue
                    }
                    let drained = ThreadLatch()
                    stream.onWritable { drained.countDown() }
                    if drained.wait(untilMonotonicNanoseconds: SystemClock.monotonicNanoseconds() + 1_000_000_000) {
                        continue
                    }
                    progress.update { $0.stalled = true }
                    let resumed = drained.wait(
                        untilMonotonicNanoseconds: SystemClock.monotonicNanoseconds() + 10_000_000_000)
                    progress.update { $0.resumed = resumed }
                    break
                }
                stream.finish()
            }
            #expect(waitUntil(30) { progress.get().stalled || progress.get().written >= 4096 })
            // Stalled well before 256 MiB: the server holds at most one chunk beyond the kernel's buffers.
            #expect(progress.get().stalled)
            #expect(!progress.get().resumed)
            let body = try #require(c.readChunkedBody())
            producer.join()
            #expect(progress.get().resumed)
            #expect(body.body.count == progress.get().written * chunk.count)
            #expect(body.sizes.allSatisfy { $0 == chunk.count })
        }
    }

    /// Issue 12's lost wake-up hunt: with both socket buffers tiny, nearly every chunk meets a full
    /// socket, so "write refused", "onWritable registered" and the loop's drain (EPOLLOUT, partial
    /// writes) interleave in every order across the producer's and the loop's threads, about a
    /// hundred times. A wake-up lost once leaves the producer waiting and the body short.
    @Test func aWriterBlockedOverAndOverIsAlwaysWokenAndNothingIsLostOrReordered() throws {
        let chunks = 100
        @Sendable func chunk(_ i: Int) -> [UInt8] {
            [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: 1 + (i &* 7919) % 24_000)
        }
        let failed = Box(false)
        let handler: HTTPHandler = { _, responder in
            let stream = responder.startStream(status: 200, sendBuffer: 4096)
            _ = JoinableThread.start(name: "test-blocked-writer") {
                for i in 0..<chunks where !writeWaiting(stream, chunk(i), seconds: 20) {
                    failed.update { $0 = true }
                    break
                }
                stream.finish()
            }
        }
        try withServer(handler: handler) { _, port in
            let c = try #require(TestClient(port: port, receiveTimeout: 30))
            c.setReceiveBuffer(4096)
            c.send("GET /blocked HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(c.readHead()?.status == 200)
            let body = try #require(c.readChunkedBody())
            #expect(!failed.get())
            #expect(body.sizes == (0..<chunks).map { chunk($0).count })
            #expect(body.body == (0..<chunks).flatMap { chunk($0) })
        }
    }

    @Test func aDisconnectCancelsTheStream() throws {
        let cancelled = Box(false)
        let streamBox = Box<HTTPStream?>(nil)
        let handler: HTTPHandler = { _, responder in
            let stream = responder.startStream(status: 200)
            stream.onCancel { cancelled.update { $0 = true } }
            streamBox.update { $0 = stream }
        }
        try withServer(handler: handler) { server, port in
            var c = TestClient(port: port)
            c?.send("GET /s HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(c?.readHead()?.status == 200)
            #expect(server.openStreams == 1)
            c = nil
            #expect(waitUntil { cancelled.get() })
            let stream = try #require(streamBox.get())
            #expect(stream.isCancelled)
            #expect(!stream.write(Array("late".utf8)))
            #expect(waitUntil { server.openStreams == 0 && server.openConnections == 0 })
        }
    }

    @Test func anIdleStreamOutlivesTheIdleAndHeadTimeouts() throws {
        var config = testConfiguration()
        config.idleTimeout = .milliseconds(100)
        config.headReadTimeout = .milliseconds(100)
        let streamBox = Box<HTTPStream?>(nil)
        let handler: HTTPHandler = { _, responder in streamBox.update { $0 = responder.startStream(status: 200) } }
        try withServer(config, handler: handler) { server, port in
            let c = try #require(TestClient(port: port))
            c.send("GET /quiet HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(c.readHead()?.status == 200)
            #expect(!waitUntil(0.5) { server.openConnections == 0 })
            let stream = try #require(streamBox.get())
            #expect(writeWaiting(stream, Array("ping".utf8)))
            #expect(c.readBytes(9) == Array("4\r\nping\r\n".utf8))
            stream.finish()
        }
    }

    @Test func shutdownEndsOpenStreamsWithTheAppsLastWordOrATerminatingChunk() throws {
        let handler: HTTPHandler = { request, responder in
            let stream = responder.startStream(status: 200)
            if request.path == "/last-word" {
                stream.onShutdown {
                    _ = stream.write(Array("bye".utf8))
                    stream.finish()
                }
            }
        }
        let server = HTTPServer(configuration: testConfiguration(), logger: Logger(level: .error), handler: handler)
        try server.start()
        let port = server.localPort
        let a = try #require(TestClient(port: port))
        let b = try #require(TestClient(port: port))
        a.send("GET /last-word HTTP/1.1\r\nHost: h\r\n\r\n")
        b.send("GET /plain HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(a.readHead()?.status == 200)
        #expect(b.readHead()?.status == 200)
        #expect(waitUntil { server.openStreams == 2 })
        let stopper = JoinableThread.start(name: "test-shutdown") { server.shutdown(gracePeriod: .seconds(10)) }
        let last = try #require(a.readChunkedBody())
        #expect(last.body == Array("bye".utf8))
        #expect(a.waitForClose())
        let plain = try #require(b.readChunkedBody())
        #expect(plain.body.isEmpty)
        #expect(b.waitForClose())
        stopper.join()
        #expect(server.openStreams == 0)
        #expect(server.openConnections == 0)
    }

    /// A stream a handler starts while the server drains gets its `onShutdown` too: the handler
    /// registers it only after `startStream` returns, so the server must not end the stream
    /// inside that call (it used to, and sent the terminating chunk without the last word).
    @Test func aStreamStartedWhileDrainingStillGetsTheAppsLastWord() throws {
        let started = ThreadLatch()
        let handler: HTTPHandler = { _, responder in
            let stream = responder.startStream(status: 200)
            stream.onShutdown {
                _ = stream.write(Array("bye".utf8))
                stream.finish()
            }
            started.countDown()
        }
        let server = HTTPServer(configuration: testConfiguration(), logger: Logger(level: .error), handler: handler)
        try server.start()
        let client = try #require(TestClient(port: server.localPort))
        // The head's last line goes out while a shutdown hook holds the server between "draining"
        // and its drain pass, so the handler runs, and starts the stream, while draining.
        #expect(client.send("GET /late HTTP/1.1\r\nHost: h\r\n"))
        // Accepted first: a connection arriving while draining is refused with 503.
        #expect(waitUntil { server.openConnections == 1 })
        let stopper = startShutdownHeldBeforeItsDrainPass(server, until: started)
        #expect(client.send("\r\n"))
        #expect(client.readHead()?.status == 200)
        let last = try #require(client.readChunkedBody())
        #expect(last.body == Array("bye".utf8))
        #expect(client.waitForClose())
        stopper.join()
        #expect(server.openStreams == 0)
    }

    /// On one loop the drain pass reaches a stream started while draining after that stream's
    /// own shutdown job ran its `onShutdown`; the second signal must not `finish()` a stream
    /// whose handler is still writing its last words.
    @Test func aSecondShutdownSignalLeavesAStreamsLastWordsAlone() throws {
        let started = ThreadLatch()
        let late = Mutex<HTTPStream?>(nil)
        let handler: HTTPHandler = { request, responder in
            if request.path == "/idle" { return responder.respond(HTTPResponse(status: 204)) }
            let stream = responder.startStream(status: 200)
            stream.onShutdown {
                _ = stream.write(Array("bye".utf8))
                late.withLock { $0 = stream }
            }
            started.countDown()
        }
        var configuration = testConfiguration()
        configuration.loopCount = 1
        let server = HTTPServer(configuration: configuration, logger: Logger(level: .error), handler: handler)
        try server.start()
        // An idle keep-alive connection: the drain pass closes it, so its close says the pass ran.
        let idle = try #require(TestClient(port: server.localPort))
        #expect(idle.send("GET /idle HTTP/1.1\r\nHost: h\r\n\r\n"))
        #expect(idle.readResponse()?.status == 204)
        let client = try #require(TestClient(port: server.localPort))
        #expect(client.send("GET /late HTTP/1.1\r\nHost: h\r\n"))
        #expect(waitUntil { server.openConnections == 2 })
        let stopper = startShutdownHeldBeforeItsDrainPass(server, until: started)
        #expect(client.send("\r\n"))
        #expect(client.readHead()?.status == 200)
        #expect(client.readBytes(8) == Array("3\r\nbye\r\n".utf8))
        #expect(idle.waitForClose())
        let stream = try #require(late.withLock { $0 })
        #expect(stream.write(Array("!".utf8)))
        stream.finish()
        #expect(client.readBytes(11) == Array("1\r\n!\r\n0\r\n\r\n".utf8))
        #expect(client.waitForClose())
        stopper.join()
    }

    /// Starts `server`'s shutdown on a thread of its own and returns once the server drains: a
    /// shutdown hook then holds it before its drain pass until `release` counts down.
    private func startShutdownHeldBeforeItsDrainPass(_ server: HTTPServer, until release: ThreadLatch)
        -> JoinableThread
    {
        let draining = ThreadLatch()
        server.onShutdown {
            draining.countDown()
            release.wait()
        }
        let stopper = JoinableThread.start(name: "test-shutdown") { server.shutdown(gracePeriod: .seconds(10)) }
        draining.wait()
        return stopper
    }
}
