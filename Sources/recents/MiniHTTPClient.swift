import Foundation

/// One HTTP/1.1 answer.
struct HTTPResponse {
    /// The status code, e.g. 200.
    let status: Int
    /// The reason phrase, e.g. `OK`.
    let reason: String
    /// Header fields with lowercased names.
    let headers: [String: String]
    /// The body, de-chunked.
    let body: [UInt8]

    /// The body as UTF-8 text (invalid bytes replaced).
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// Why a request failed before a complete answer arrived.
struct HTTPClientError: Error, CustomStringConvertible {
    /// One line for stderr.
    let description: String
}

/// A blocking HTTP/1.1 client over plain sockets: one request per connection, `Connection: close`.
///
/// Written against Glibc instead of FoundationNetworking because the binary is linked with
/// `--static-swift-stdlib` and must run in a slim image without libcurl.
struct MiniHTTPClient {
    /// Host name or numeric address.
    let host: String
    /// TCP port.
    let port: Int
    /// Seconds for the whole exchange: connect, send and receive.
    let timeout: Double

    /// Sends one request and reads the whole answer, all within `timeout`.
    func request(
        method: String, path: String, body: [UInt8] = [], contentType: String? = nil
    ) throws(HTTPClientError) -> HTTPResponse {
        let deadline = MiniHTTPClient.now() + timeout
        let socket = try connect(deadline: deadline)
        defer { close(socket) }

        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: recents/\(recentsVersion)\r\n"
        head += "Accept: application/json\r\nConnection: close\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + body, on: socket, deadline: deadline)
        return try receive(on: socket, deadline: deadline)
    }

    private func connect(deadline: Double) throws(HTTPClientError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw HTTPClientError(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }

        var lastError = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let socket = Glibc.socket(
                info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socket >= 0 else {
                lastError = String(cString: strerror(errno))
                continue
            }
            // Non-blocking connect so an unreachable host cannot outlast the deadline.
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
            if Glibc.connect(socket, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                return socket
            }
            if errno == EINPROGRESS, wait(for: Int16(POLLOUT), on: socket, deadline: deadline) {
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
                if error == 0 { return socket }
                lastError = String(cString: strerror(error))
            } else {
                lastError = errno == EINPROGRESS ? "timed out" : String(cString: strerror(errno))
            }
            close(socket)
        }
        throw HTTPClientError(description: "cannot connect to \(host):\(port): \(lastError)")
    }

    private func send(_ bytes: [UInt8], on socket: Int32, deadline: Double) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                Glibc.send(socket, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent >= 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EINTR {
                guard wait(for: Int16(POLLOUT), on: socket, deadline: deadline) else {
                    throw HTTPClientError(description: "timed out sending to \(host):\(port)")
                }
            } else {
                throw HTTPClientError(
                    description: "cannot send to \(host):\(port): \(String(cString: strerror(errno)))")
            }
        }
    }

    private func receive(on socket: Int32, deadline: Double) throws(HTTPClientError) -> HTTPResponse {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let response = try MiniHTTPClient.parse(data, complete: false) { return response }
            guard wait(for: Int16(POLLIN), on: socket, deadline: deadline) else {
                throw HTTPClientError(description: "timed out waiting for \(host):\(port)")
            }
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                data += chunk[0..<count]
            } else if count == 0 {
                if let response = try MiniHTTPClient.parse(data, complete: true) { return response }
                throw HTTPClientError(description: "connection closed before a complete answer from \(host):\(port)")
            } else if errno != EAGAIN && errno != EINTR {
                throw HTTPClientError(
                    description: "cannot read from \(host):\(port): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Parses a full answer from `data`; nil when more bytes are needed (`complete` means the peer closed).
    static func parse(_ data: [UInt8], complete: Bool) throws(HTTPClientError) -> HTTPResponse? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = data.firstRange(of: separator) else { return nil }
        let headText = String(decoding: data[..<headEnd.lowerBound], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusParts = lines.removeFirst().split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw HTTPClientError(description: "malformed status line in answer")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let rest = Array(data[headEnd.upperBound...])
        let body: [UInt8]
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            guard let decoded = dechunk(rest) else {
                if complete { throw HTTPClientError(description: "truncated chunked body in answer") }
                return nil
            }
            body = decoded
        } else if let lengthText = headers["content-length"] {
            guard let length = Int(lengthText), length >= 0 else {
                throw HTTPClientError(description: "malformed Content-Length in answer")
            }
            guard rest.count >= length else {
                if complete { throw HTTPClientError(description: "truncated body in answer") }
                return nil
            }
            body = Array(rest[..<length])
        } else if status == 204 || status == 304 || (100..<200).contains(status) {
            body = []
        } else {
            // No framing: the body runs until the server closes the connection.
            guard complete else { return nil }
            body = rest
        }
        let reason = statusParts.count > 2 ? String(statusParts[2]) : ""
        return HTTPResponse(status: status, reason: reason, headers: headers, body: body)
    }

    /// Decodes a chunked body; nil until the terminating zero-length chunk has arrived.
    static func dechunk(_ data: [UInt8]) -> [UInt8]? {
        var body: [UInt8] = []
        var index = 0
        let crlf: [UInt8] = [13, 10]
        while true {
            guard let lineEnd = data[index...].firstRange(of: crlf) else { return nil }
            let sizeText = String(decoding: data[index..<lineEnd.lowerBound], as: UTF8.self)
            let hex = sizeText.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let size = Int(hex.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else { return nil }
            index = lineEnd.upperBound
            if size == 0 { return body }
            guard data.count >= index + size + 2 else { return nil }
            body += data[index..<(index + size)]
            index += size + 2
        }
    }

    /// Polls for `events` until the deadline; false on timeout or error.
    private func wait(for events: Int16, on socket: Int32, deadline: Double) -> Bool {
        while true {
            let remaining = deadline - MiniHTTPClient.now()
            guard remaining > 0 else { return false }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let result = poll(&descriptor, 1, Int32(min(remaining * 1000, Double(Int32.max)).rounded(.up)))
            if result > 0 { return true }
            if result == 0 { return false }
            if errno != EINTR { return false }
        }
    }

    /// Monotonic seconds, immune to wall-clock jumps.
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
