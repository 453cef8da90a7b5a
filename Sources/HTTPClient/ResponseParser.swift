/// Takes complete HTTP/1.1 answers off the front of the bytes received so far (RFC 9112 §6 framing).
///
/// Bytes after an answer stay buffered, so pipelined answers on a keep-alive connection are read
/// one by one and a test can check that nothing else was sent.
struct ResponseParser {
    /// Bytes received and not yet returned as part of an answer.
    var buffer: [UInt8] = []

    /// Adds received bytes.
    mutating func append(_ bytes: ArraySlice<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete answer, removed from the buffer; nil when more bytes are needed.
    ///
    /// `head` says the request was HEAD (its answer has no body whatever its fields say); `closed`
    /// says the peer has closed, which ends a body that has neither length nor chunking.
    mutating func next(head: Bool, closed: Bool) throws(HTTPClientError) -> HTTPClientResponse? {
        guard let headEnd = Self.find([13, 10, 13, 10], in: buffer, from: 0) else {
            if closed && !buffer.isEmpty { throw HTTPClientError(description: "truncated answer head") }
            return nil
        }
        var response = try Self.parseHead(buffer[..<headEnd])
        let bodyStart = headEnd + 4
        let end: Int
        if head || response.status < 200 || response.status == 204 || response.status == 304 {
            end = bodyStart
        } else if response.headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            guard let (body, chunkedEnd) = try Self.dechunk(buffer, from: bodyStart) else {
                if closed { throw HTTPClientError(description: "truncated chunked body in answer") }
                return nil
            }
            response.body = body
            end = chunkedEnd
        } else if let lengthText = response.headers["content-length"] {
            guard let length = Int(lengthText), length >= 0 else {
                throw HTTPClientError(description: "malformed Content-Length '\(lengthText)' in answer")
            }
            guard buffer.count - bodyStart >= length else {
                if closed { throw HTTPClientError(description: "truncated body in answer") }
                return nil
            }
            end = bodyStart + length
            response.body = Array(buffer[bodyStart..<end])
        } else {
            // No framing: the body runs until the server closes the connection (RFC 9112 §6.3, rule 8).
            guard closed else { return nil }
            end = buffer.count
            response.body = Array(buffer[bodyStart...])
        }
        buffer.removeFirst(end)
        return response
    }

    /// Status line and fields; the body is filled in by the caller.
    static func parseHead(_ head: ArraySlice<UInt8>) throws(HTTPClientError) -> HTTPClientResponse {
        var lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines.removeFirst().split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]),
            (100...999).contains(status)
        else {
            throw HTTPClientError(description: "malformed status line in answer")
        }
        var fields: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields.append((String(line[..<colon]), trimmed(line[line.index(after: colon)...])))
        }
        let reason = statusParts.count > 2 ? String(statusParts[2]) : ""
        return HTTPClientResponse(status: status, reason: reason, headers: HTTPClientHeaders(fields))
    }

    /// A chunked body starting at `start` and the index just past it (trailers included); nil until complete.
    static func dechunk(_ data: [UInt8], from start: Int) throws(HTTPClientError) -> ([UInt8], Int)? {
        var body: [UInt8] = []
        var index = start
        while true {
            guard let lineEnd = find([13, 10], in: data, from: index) else { return nil }
            let sizeText = String(decoding: data[index..<lineEnd], as: UTF8.self)
            let hex = trimmed(sizeText.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0])
            guard let size = Int(hex, radix: 16), size >= 0 else {
                throw HTTPClientError(description: "malformed chunk size '\(sizeText)' in answer")
            }
            index = lineEnd + 2
            if size == 0 { break }
            guard data.count >= index + size + 2 else { return nil }
            body += data[index..<(index + size)]
            index += size + 2
        }
        // Trailer fields, if any, end with an empty line (RFC 9112 §7.1.2).
        while true {
            guard let lineEnd = find([13, 10], in: data, from: index) else { return nil }
            defer { index = lineEnd + 2 }
            if lineEnd == index { return (body, lineEnd + 2) }
        }
    }

    /// The first index of `pattern` in `data` at or after `start`.
    static func find(_ pattern: [UInt8], in data: [UInt8], from start: Int) -> Int? {
        guard data.count >= pattern.count, start <= data.count - pattern.count else { return nil }
        for index in start...(data.count - pattern.count) where data[index] == pattern[0] {
            if data[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
        }
        return nil
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
