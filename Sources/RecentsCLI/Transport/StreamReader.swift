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
        // The body is coded as the server chose (we asked for br or gzip): each piece is decoded as it
        // arrives, so an event inflates whole the moment its bytes are here.
        let decoder = try HTTPBodyDecoder(for: response)
        guard yield(.head(status: response.status, headers: response.headers.fields)) else { return }
        if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            guard try readChunks(decoder) else { return }
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }), length >= 0 {
            guard try readPieces(length, decoder) else { return }
        } else {
            // No framing: the body ends when the server closes (an error answer of an old server).
            _ = connection.waitForClose()
            guard try yieldDecoded(connection.unread, decoder) else { return }
        }
        if !bodyless(response) { try decoder.finish() }
    }

    /// Whether the answer has no body whatever its fields say (RFC 9112 §6.3).
    private func bodyless(_ response: HTTPClientResponse) -> Bool {
        response.status < 200 || response.status == 204 || response.status == 304
    }

    /// Chunked framing (RFC 9112 §7.1): each chunk in pieces, until the last chunk; false when
    /// the consumer stopped.
    private func readChunks(_ decoder: HTTPBodyDecoder) throws(HTTPClientError) -> Bool {
        while true {
            let sizeLine = String(decoding: try connection.readLine(maxLength: 1024), as: UTF8.self)
            let digits = sizeLine.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard let size = Int(digits.filter { $0 != " " && $0 != "\t" }, radix: 16), size >= 0 else {
                throw HTTPClientError(description: "malformed chunk size '\(sizeLine)' in answer")
            }
            if size == 0 { return true }
            guard try readPieces(size, decoder) else { return false }
            _ = try connection.readLine(maxLength: 2)
        }
    }

    /// Yields `count` bytes in pieces, decoded; false when the consumer stopped.
    private func readPieces(_ count: Int, _ decoder: HTTPBodyDecoder) throws(HTTPClientError) -> Bool {
        var remaining = count
        while remaining > 0 {
            let piece = try connection.readBytes(min(remaining, Self.pieceBytes))
            remaining -= piece.count
            guard try yieldDecoded(piece, decoder) else { return false }
        }
        return true
    }

    /// Yields what `piece` decodes to (nothing when a coded piece completes no content yet); false
    /// when the consumer stopped.
    private func yieldDecoded(_ piece: [UInt8], _ decoder: HTTPBodyDecoder) throws(HTTPClientError) -> Bool {
        let content = try decoder.decode(piece)
        guard !content.isEmpty || decoder.isIdentity else { return true }
        return yield(.body(Data(content)))
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
