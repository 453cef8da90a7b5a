import Glibc
import SystemSupport
import Testing

@testable import HTTPServer

/// The idle clock of a streaming connection: bytes the kernel takes straight from `write` are the
/// client reading, so healthy output keeps the clock fresh even when it never needed an EPOLLOUT flush.
@Suite(.serialized) struct StreamIdleClockTests {
    /// Regression for commit 35dd7f3 (issue 12's paused reader): the idle clock used to move only on
    /// EPOLLOUT flushes, so after more than one idle timeout of direct writes the first stall found
    /// output pending on a connection "idle" since the stream began, and closed it at the next scan.
    @Test func aShortStallAfterLongerThanTheIdleTimeoutOfDirectWritesDoesNotCloseTheStream() throws {
        let idle = Duration.seconds(1)
        var config = testConfiguration()
        config.idleTimeout = idle
        // The timeout scan runs every min(head, idle) / 4 = 50 ms, so the stall below meets several.
        config.headReadTimeout = .milliseconds(200)
        let streamBox = Box<HTTPStream?>(nil)
        let handler: HTTPHandler = { _, responder in
            // A fixed send buffer: autotuning would let the kernel take the whole stalled output.
            streamBox.update { $0 = responder.startStream(status: 200, sendBuffer: 64 * 1024) }
        }
        try withServer(config, handler: handler) { _, port in
            let c = try #require(TestClient(port: port))
            c.send("GET /ticks HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(c.readHead()?.status == 200)
            #expect(waitUntil { streamBox.get() != nil })
            let stream = try #require(streamBox.get())

            // Healthy output for 1.5 idle timeouts: each tick is read before the next is written, so
            // the socket is always empty and every write goes straight into the kernel.
            let tick = Array("tick".utf8)
            let framedTick = Array("4\r\ntick\r\n".utf8)
            let healthyUntil = ContinuousClock.now + idle * 1.5
            while ContinuousClock.now < healthyUntil {
                try #require(writeWaiting(stream, tick, seconds: 10))
                try #require(c.readBytes(framedTick.count) == framedTick)
                // Time passing is the subject of this test (not synchronisation); the pause only
                // spaces the ticks so the loop does not spin.
                usleep(10_000)
            }

            // The stall: the client stops reading while the server keeps writing, far more than both
            // socket buffers hold. The writes go straight in until the buffers are full and a chunk
            // is left pending, the way a paused event-stream reader fills up.
            let chunk = [UInt8](repeating: 0x62, count: 16 * 1024)
            let chunks = 32
            let marker = Array("after the stall".utf8)
            let backpressure = ThreadLatch()
            let producer = JoinableThread.start(name: "test-stalled-writer") {
                for i in 0..<chunks {
                    if !stream.write(chunk) {
                        // Refusing the first chunk can only mean the last tick's drain is not reported yet.
                        if i > 0 { backpressure.countDown() }
                        guard writeWaiting(stream, chunk, seconds: 10) else { return }
                    }
                    // Paced like an event stream, not for synchronisation: a burst would meet the
                    // receiver's delayed ACK with a chunk pending, and that EPOLLOUT flush would move
                    // the idle clock in any build, hiding what this test is about.
                    usleep(10_000)
                }
                if writeWaiting(stream, marker, seconds: 10) { stream.finish() }
            }
            defer { producer.join() }
            let deadline = SystemClock.monotonicNanoseconds() + 10_000_000_000
            try #require(backpressure.wait(untilMonotonicNanoseconds: deadline), "the socket buffers never filled")
            // The stall's length is the subject too (not synchronisation): four timeout scans see
            // the pending output, a fifth of the idle timeout.
            usleep(200_000)

            let body = try #require(c.readChunkedBody(), "the stream was closed during a short stall")
            #expect(body.sizes == Array(repeating: chunk.count, count: chunks) + [marker.count])
            #expect(body.body.dropLast(marker.count).allSatisfy { $0 == 0x62 })
            #expect(Array(body.body.suffix(marker.count)) == marker)
        }
    }
}
