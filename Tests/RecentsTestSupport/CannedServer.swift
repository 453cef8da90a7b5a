import Glibc

/// A one-connection loopback listener that answers with canned bytes, for client tests that need
/// to see exactly what was sent and to send what no Recents server sends (yet): coded bodies,
/// odd framing.
public final class CannedServer: Sendable {
    /// The listening socket.
    public let listener: Int32
    /// The loopback port it listens on.
    public let port: Int

    /// Listens on a free port of 127.0.0.1.
    public init() throws(CannedServerError) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw CannedServerError(step: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw CannedServerError(step: "bind")
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(listener) }

    /// Accepts one connection within 10 s, or returns -1.
    public func accept() -> Int32 {
        var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 10_000) == 1 else { return -1 }
        return Glibc.accept(listener, nil, nil)
    }

    /// Reads one request from `connection`: its head (up to the blank line) and a body of its
    /// `Content-Length`; nil if the peer closes first or 10 s pass.
    public static func readRequest(_ connection: Int32) -> (head: String, body: [UInt8])? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = received.indices.dropLast(3).first(where: {
                received[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10])
            }) {
                let head = String(decoding: received[..<end], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").compactMap { line -> Int? in
                        guard line.lowercased().hasPrefix("content-length:") else { return nil }
                        return Int(line.dropFirst(15).filter { $0 != " " })
                    }.first ?? 0
                if received.count >= end + 4 + length {
                    return (head, Array(received[(end + 4)..<(end + 4 + length)]))
                }
            }
            var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 10_000) == 1 else { return nil }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            received += chunk[..<count]
        }
    }

    /// Sends every byte of `bytes` on `connection` (blocking).
    public static func send(_ bytes: [UInt8], on connection: Int32) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(connection, $0.baseAddress.map { $0 + offset }, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// A chunk of chunked framing (RFC 9112 §7.1) holding `bytes`; empty `bytes` is the last chunk.
    public static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [13, 10]
    }
}

/// A canned server could not listen.
public struct CannedServerError: Error {
    /// The call that failed.
    public let step: String
}
