// Streamed answers (chunked event streams, long bodies read piece by piece): the head is taken
// on its own and the body bytes stay in the buffer for the caller to take as they arrive.
extension ResponseParser {
    /// The head of the next answer, removed from the buffer with its blank line; nil when it has
    /// not fully arrived. The body, whatever its framing, stays buffered.
    mutating func nextHead(closed: Bool) throws(HTTPClientError) -> HTTPClientResponse? {
        guard let headEnd = Self.find([13, 10, 13, 10], in: buffer, from: 0) else {
            if closed && !buffer.isEmpty { throw HTTPClientError(description: "truncated answer head") }
            return nil
        }
        let response = try Self.parseHead(buffer[..<headEnd])
        buffer.removeFirst(headEnd + 4)
        return response
    }

    /// The first `count` buffered bytes, removed; nil when fewer have arrived.
    mutating func take(_ count: Int) -> [UInt8]? {
        guard buffer.count >= count else { return nil }
        let bytes = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// The first line ending in CRLF (without it), removed; nil when no complete line has arrived.
    mutating func takeLine() -> [UInt8]? {
        guard let end = Self.find([13, 10], in: buffer, from: 0) else { return nil }
        let line = Array(buffer[0..<end])
        buffer.removeFirst(end + 2)
        return line
    }
}
