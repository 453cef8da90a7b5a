import HTTPClient
import RecentsClientCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// Reads one streamed answer off a blocking connection and yields its parts as they arrive.
struct StreamReader {
    /// The largest piece read at once, so a huge chunk cannot be buffered whole.
    static let pieceBytes = 64 * 1024

    let connection: HTTPConnection
    let continuation: AsyncThrowingStream<TransportStreamPart, any Error>.Continuation

    /// Sends `request`, then yields the head and the de-framed body until the answer ends, the
    /// consumer stops or it falls behind (then the parts end and the connection closes).
    func read(_ request: TransportRequest, _ target: SocketTarget) throws(HTTPClientError) {
        var head = "\(request.method) \(target.target) HTTP/1.1\r\nHost: \(connection.authority)\r\n"
        for (name, value) in SocketTransport.fields(request) { head += "\(name): \(value)\r\n" }
        try connection.sendRaw(Array((head + "\r\n").utf8))
        let response = try connection.readHead()
        guard yield(.head(status: response.status, headers: response.headers.fields)) else { return }
        if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            try readChunks()
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }), length >= 0 {
            _ = try readPieces(length)
        } else {
            // No framing: the body ends when the server closes (an error answer of an old server).
            _ = connection.waitForClose()
            _ = yield(.body(Data(connection.unread)))
        }
    }

    /// Chunked framing (RFC 9112 §7.1): each chunk in pieces, until the last chunk.
    private func readChunks() throws(HTTPClientError) {
        while true {
            let sizeLine = String(decoding: try connection.readLine(maxLength: 1024), as: UTF8.self)
            let digits = sizeLine.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard let size = Int(digits.filter { $0 != " " && $0 != "\t" }, radix: 16), size >= 0 else {
                throw HTTPClientError(description: "malformed chunk size '\(sizeLine)' in answer")
            }
            if size == 0 { return }
            guard try readPieces(size) else { return }
            _ = try connection.readLine(maxLength: 2)
        }
    }

    /// Yields `count` bytes in pieces; false when the consumer stopped.
    private func readPieces(_ count: Int) throws(HTTPClientError) -> Bool {
        var remaining = count
        while remaining > 0 {
            let piece = try connection.readBytes(min(remaining, Self.pieceBytes))
            remaining -= piece.count
            guard yield(.body(Data(piece))) else { return false }
        }
        return true
    }

    /// Yields a part; false when the consumer is gone or fell behind (the parts then end).
    private func yield(_ part: TransportStreamPart) -> Bool {
        switch continuation.yield(part) {
        case .enqueued: return true
        case .dropped:
            continuation.finish()
            return false
        case .terminated: return false
        @unknown default: return false
        }
    }
}
