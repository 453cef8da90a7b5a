import Foundation
import Glibc
import HTTPServer
import Synchronization

/// A parsed response as seen by the test client.
struct TestResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var bodyString: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking loopback client with a receive timeout, so no test can hang.
final class TestClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 65536)

    init?(port: Int, receiveTimeout: Double = 5) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var tv = timeval(
            tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - Double(Int(receiveTimeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if rc != 0 {
            close(fd)
            return nil
        }
    }

    deinit { close(fd) }

    /// Sets a small receive buffer (before much data arrives) so backpressure shows up quickly.
    func setReceiveBuffer(_ bytes: Int32) {
        var v = bytes
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, socklen_t(MemoryLayout<Int32>.size))
    }

    @discardableResult
    func send(_ s: String) -> Bool { send(Array(s.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            off += n
        }
        return true
    }

    func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Reads more bytes; false on EOF, error or timeout.
    private func fill() -> Bool {
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { return false }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Reads one response; `head` suppresses the body (HEAD request). Nil on EOF/timeout/garbage.
    func readResponse(head: Bool = false) -> TestResponse? {
        var headEnd: Int?
        while headEnd == nil {
            if let r = findCRLFCRLF() {
                headEnd = r
            } else if !fill() {
                return nil
            }
        }
        let headText = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            headers.append((String(line[..<colon]), String(value)))
        }
        var response = TestResponse(status: status, headers: headers, body: [])
        let length =
            head || status == 204 || status == 304 || status < 200
            ? 0 : Int(response.header("Content-Length") ?? "0") ?? 0
        while buffer.count < length {
            if !fill() { return nil }
        }
        response.body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return response
    }

    /// Reads until EOF (or timeout); returns whether the peer closed.
    func waitForClose() -> Bool {
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// Reads exactly `count` raw bytes (after any head already parsed); nil on EOF or timeout.
    func readBytes(_ count: Int) -> [UInt8]? {
        while buffer.count < count {
            if !fill() { return nil }
        }
        let bytes = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Reads one line ending in CRLF (without it); nil on EOF, timeout or a line over 1 KiB.
    private func readLine() -> [UInt8]? {
        while true {
            if let lf = buffer.firstIndex(of: 10), lf > 0, buffer[lf - 1] == 13 {
                let line = Array(buffer[0..<(lf - 1)])
                buffer.removeFirst(lf + 1)
                return line
            }
            if buffer.count > 1024 || !fill() { return nil }
        }
    }

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
    var unread: [UInt8] { buffer }

    private func findCRLFCRLF() -> Int? {
        if buffer.count < 4 { return nil }
        for i in 0...(buffer.count - 4)
        where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }
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
