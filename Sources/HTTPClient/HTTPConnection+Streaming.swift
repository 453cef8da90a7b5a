extension HTTPConnection {
    /// Reads the head of the next answer and leaves its body unread, for an answer that streams
    /// (chunked or close-delimited) and is read piece by piece with `readBytes`/`readLine`; the
    /// pieces are raw, so a coded body goes through an `HTTPBodyDecoder(for:)` of this head.
    /// - Throws: when the head is malformed, the peer closes first, or `timeout` passes.
    public func readHead() throws(HTTPClientError) -> HTTPClientResponse {
        try receiving { parser, closed throws(HTTPClientError) in try parser.nextHead(closed: closed) }
    }

    /// Reads exactly `count` raw bytes of what follows.
    /// - Throws: when the peer closes first or `timeout` passes.
    public func readBytes(_ count: Int) throws(HTTPClientError) -> [UInt8] {
        try receiving { parser, _ in parser.take(count) }
    }

    /// Reads one line ending in CRLF and returns it without the CRLF.
    /// - Throws: when the line grows past `maxLength`, the peer closes first, or `timeout` passes.
    public func readLine(maxLength: Int = 64 * 1024) throws(HTTPClientError) -> [UInt8] {
        try receiving { parser, _ throws(HTTPClientError) in
            if let line = parser.takeLine() { return line }
            if parser.buffer.count > maxLength {
                throw HTTPClientError(description: "a line longer than \(maxLength) bytes")
            }
            return nil
        }
    }
}
