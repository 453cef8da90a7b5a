import Foundation
import Glibc
import HTTPClient
import HTTPServer
import RecentsTestSupport
import Synchronization
import SystemSupport

/// The raw-socket helper of the server tests: hand-written (often malformed) bytes out, answers
/// read by the one test client (`HTTPConnection`), with `nil`/`false` for "no answer" so a test
/// can `#require` it. No test can hang: every read ends within `receiveTimeout`.
final class TestClient {
    private let connection: HTTPConnection

    init?(port: Int, receiveTimeout: Double = 5) {
        guard
            let connection = try? HTTPConnection(
                port: port, timeout: .milliseconds(Int64(receiveTimeout * 1000)))
        else { return nil }
        self.connection = connection
    }

    /// Sets a small receive buffer (before much data arrives) so backpressure shows up quickly.
    func setReceiveBuffer(_ bytes: Int32) { connection.setReceiveBufferSize(bytes) }

    @discardableResult
    func send(_ s: String) -> Bool { send(Array(s.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool { (try? connection.sendRaw(bytes)) != nil }

    func shutdownWrite() { connection.shutdownWrite() }

    /// Reads one response; `head` suppresses the body (HEAD request). Nil on EOF/timeout/garbage.
    func readResponse(head: Bool = false) -> TestResponse? { try? connection.readResponse(head: head) }

    /// Reads until EOF (or timeout); returns whether the peer closed.
    func waitForClose() -> Bool { connection.waitForClose() }

    /// Reads only the head of a streamed answer; its body stays unread. Nil on EOF/timeout/garbage.
    func readHead() -> TestResponse? { try? connection.readHead() }

    /// Reads exactly `count` raw bytes (after any head already parsed); nil on EOF or timeout.
    func readBytes(_ count: Int) -> [UInt8]? { try? connection.readBytes(count) }

    /// Reads one line ending in CRLF (without it); nil on EOF, timeout or a line over 1 KiB.
    private func readLine() -> [UInt8]? { try? connection.readLine(maxLength: 1024) }

    /// Reads a chunked body up to and including its terminating chunk (RFC 9112 §7.1);
    /// the decoded bytes and each chunk's size, or nil when the framing is broken.
    func readChunkedBody() -> (body: [UInt8], sizes: [Int])? {
        var body: [UInt8] = []
        var sizes: [Int] = []
        while true {
            guard let line = readLine(), let size = Int(String(decoding: line, as: UTF8.self), radix: 16) else {
                return nil
            }
            if size == 0 {
                guard readLine() == [] else { return nil }
                return (body, sizes)
            }
            guard let data = readBytes(size + 2), data.suffix(2) == [13, 10] else { return nil }
            body.append(contentsOf: data.dropLast(2))
            sizes.append(size)
        }
    }

    /// Raw buffered-but-unparsed bytes (for checking that nothing else was sent).
    var unread: [UInt8] { connection.unread }
}

extension TestResponse {
    /// The body as UTF-8 text.
    var bodyString: String { text }
}

/// Polls `condition` every millisecond until it holds or `seconds` pass.
func waitUntil(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(1000)
    }
    return condition()
}

/// A configuration bound to an ephemeral loopback port.
func testConfiguration() -> HTTPServerConfiguration {
    var c = HTTPServerConfiguration()
    c.host = "127.0.0.1"
    c.port = 0
    c.loopCount = 2
    return c
}

/// Starts a server, runs `body`, and shuts it down.
func withServer(
    _ configuration: HTTPServerConfiguration = testConfiguration(), handler: @escaping HTTPHandler,
    _ body: (HTTPServer, Int) throws -> Void
) throws {
    let server = HTTPServer(configuration: configuration, logger: Logger(level: .error), handler: handler)
    try server.start()
    defer { server.shutdown(gracePeriod: .seconds(2)) }
    try body(server, server.localPort)
}

/// A thread-safe counter/box for handler observations.
final class Box<T: Sendable>: Sendable {
    let value: Mutex<T>
    init(_ v: T) { value = Mutex(v) }
    func get() -> T { value.withLock { $0 } }
    func update(_ f: (inout T) -> Void) { value.withLock { f(&$0) } }
}

/// Descriptors of this process that are TCP sockets bound to local `port` (the listener plus accepted connections).
func serverSocketCount(port: Int) -> Int {
    var inodes = Set<String>()
    for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
        guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
        for line in text.split(separator: "\n").dropFirst() {
            let cols = line.split(separator: " ")
            guard cols.count > 9, let colon = cols[1].lastIndex(of: ":"),
                Int(cols[1][cols[1].index(after: colon)...], radix: 16) == port
            else { continue }
            inodes.insert(String(cols[9]))
        }
    }
    guard let dir = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(dir) }
    var count = 0
    var target = [CChar](repeating: 0, count: 256)
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let n = readlink("/proc/self/fd/" + name, &target, 255)
        guard n > 0 else { continue }
        let link = String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if link.hasPrefix("socket:["), inodes.contains(String(link.dropFirst(8).dropLast())) { count += 1 }
    }
    return count
}

/// Writes `bytes`, waiting (at most `seconds`) for the stream to drain whenever it refuses; false if it never did.
func writeWaiting(_ stream: HTTPStream, _ bytes: [UInt8], seconds: Double = 5) -> Bool {
    while !stream.write(bytes) {
        if stream.isCancelled { return false }
        let drained = ThreadLatch()
        stream.onWritable { drained.countDown() }
        let deadline = SystemClock.monotonicNanoseconds() + UInt64(seconds * 1e9)
        if !drained.wait(untilMonotonicNanoseconds: deadline) { return false }
    }
    return true
}
