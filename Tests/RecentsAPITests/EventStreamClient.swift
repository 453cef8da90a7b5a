import Foundation
import HTTPClient
import RecentsTestSupport
import Testing

/// One block of an event stream: an event (`id`, `event`, `data` fields) or a comment.
struct StreamBlock {
    /// The block as sent, with its final blank line.
    var raw: String
    var id: String?
    var event: String?
    var data: String?
    /// The reconnection time in milliseconds, when the block sets it.
    var retry: Int?
    var isComment: Bool { raw.hasPrefix(":") }

    init(raw: String) {
        self.raw = raw
        for line in raw.split(separator: "\n") {
            if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
            if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
            if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            if line.hasPrefix("retry: ") { retry = Int(line.dropFirst(7)) }
        }
    }

    /// The `data` of a transition event, decoded.
    func transition() throws -> TransitionReply {
        try JSONDecoder().decode(TransitionReply.self, from: Data((data ?? "").utf8))
    }
}

/// A `GET …/events` request over a real socket, its body read chunk by chunk (every chunk is
/// checked against its size line) and split into blocks at blank lines.
final class EventStreamClient {
    let connection: HTTPConnection
    let head: TestResponse
    private var body: [UInt8] = []
    /// The terminating chunk arrived: the server ended the stream.
    private(set) var finished = false

    /// Opens `target` with `Accept: text/event-stream`; `receiveBuffer` shrinks the socket's
    /// buffer before the request, so the server's backpressure shows early.
    init(
        _ server: TestServer, _ target: String, headers: [(String, String)] = [], receiveBuffer: Int32? = nil
    ) throws {
        // A long bound: the slow-reader tests move megabytes, and the suite shares a loaded host.
        connection = try HTTPConnection(port: server.port, timeout: .seconds(60))
        if let receiveBuffer { connection.setReceiveBufferSize(receiveBuffer) }
        var request = "GET \(target) HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try connection.sendRaw(Array((request + "\r\n").utf8))
        head = try connection.readHead()
    }

    /// The next block (a comment too, unless `skippingComments`).
    func next(skippingComments: Bool = false) throws -> StreamBlock {
        while true {
            if let end = Self.blankLine(in: body) {
                let block = StreamBlock(raw: String(decoding: body[..<end], as: UTF8.self))
                body.removeFirst(end)
                if skippingComments && block.isComment { continue }
                return block
            }
            guard !finished else { throw TestClientError(description: "the stream ended") }
            try readChunk()
        }
    }

    /// The next transition event, skipping comments.
    func nextTransition(sourceLocation: SourceLocation = #_sourceLocation) throws -> TransitionReply {
        let block = try next(skippingComments: true)
        #expect(block.event == "transition", "\(block.raw)", sourceLocation: sourceLocation)
        return try block.transition()
    }

    /// Reads until the server ends the stream; what arrived meanwhile stays for `next`.
    func readToEnd() throws {
        while !finished { try readChunk() }
    }

    /// Whether nothing but `next` blocks is buffered once the stream ended.
    var isDrained: Bool { finished && body.isEmpty }

    private func readChunk() throws {
        let sizeLine = String(decoding: try connection.readLine(), as: UTF8.self)
        guard let size = Int(sizeLine, radix: 16) else {
            throw TestClientError(description: "bad chunk size line '\(sizeLine)'")
        }
        let chunk = try connection.readBytes(size + 2)
        guard chunk.suffix(2) == [13, 10] else { throw TestClientError(description: "chunk without CRLF") }
        if size == 0 {
            finished = true
        } else {
            body += chunk.prefix(size)
        }
    }

    /// The end of the first block (just past its "\n\n"), if one has arrived whole.
    private static func blankLine(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for index in 1..<bytes.count where bytes[index] == 10 && bytes[index - 1] == 10 {
            return index + 1
        }
        return nil
    }
}
