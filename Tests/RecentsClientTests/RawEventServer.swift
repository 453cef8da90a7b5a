import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A one-connection-at-a-time `text/event-stream` server on a loopback port, over a real socket:
/// the event stream the Recents server does not have yet, for testing the client's stream path.
///
/// Each accepted connection gets a close-delimited `200 text/event-stream` head; `send` writes
/// to the current connection; `happenings` reports each request target and each client close.
final class RawEventServer: Sendable {
    enum Happening: Sendable, Equatable {
        case request(String)
        case closedByClient
    }

    let port: Int
    let happenings: AsyncStream<Happening>
    private let listener: Int32
    private let connection = Locked<Int32>(-1)
    private let report: AsyncStream<Happening>.Continuation

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard listener >= 0, bound == 0, listen(listener, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        (happenings, report) = AsyncStream.makeStream(of: Happening.self)
        let thread = Thread { [listener, connection, report] in
            Self.serve(listener: listener, connection: connection, report: report)
        }
        thread.start()
    }

    /// Writes text to the open connection.
    func send(_ text: String) {
        let fd = connection.withLock { $0 }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Stops accepting (the accept loop ends when the listener is shut down).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        report.finish()
    }

    /// Accepts connections until the listener closes; reads each head, answers the stream head, waits for EOF.
    private static func serve(listener: Int32, connection: Locked<Int32>, report: AsyncStream<Happening>.Continuation) {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            var head = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !head.ends(with: Array("\r\n\r\n".utf8)) {
                let count = read(fd, &buffer, buffer.count)
                guard count > 0 else { break }
                head += buffer[..<count]
            }
            let target =
                String(decoding: head, as: UTF8.self).split(separator: " ").dropFirst().first.map(String.init) ?? ""
            let answer =
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
            _ = Array(answer.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            connection.withLock { $0 = fd }
            report.yield(.request(target))
            // The client sends nothing more: a read that returns 0 (or fails) is the client closing.
            while read(fd, &buffer, buffer.count) > 0 {}
            report.yield(.closedByClient)
            close(fd)
        }
    }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
