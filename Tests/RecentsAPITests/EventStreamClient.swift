import Foundation
import HTTPClient
import HTTPServer
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

/// A `GET …/events` request, its body split into blocks at blank lines: over a real socket on a
/// socket server (every chunk checked against its size line), or in process on an in-process one
/// (the blocks as the pipeline wrote them, waited for on the exchange's condition, not by polling).
final class EventStreamClient {
    private enum Source {
        case socket(HTTPConnection)
        case inProcess(InProcessExchange)
    }

    private let source: Source
    let head: TestResponse
    private var body: [UInt8] = []
    /// The terminating chunk arrived: the server ended the stream.
    private(set) var finished = false

    /// Opens `target` with `Accept: text/event-stream`; `receiveBuffer` (socket only) shrinks the
    /// socket's buffer before the request, so the server's backpressure shows early.
    init(
        _ server: TestServer, _ target: String, headers: [(String, String)] = [], receiveBuffer: Int32? = nil
    ) throws {
        guard server.isSocket else {
            let exchange = try server.begin("GET", target, headers: [("Accept", "text/event-stream")] + headers)
            exchange.body(within: Self.patience) { _ in true }
            guard let response = exchange.response else {
                exchange.cancel()
                throw TestClientError(description: "no head within 60 s")
            }
            source = .inProcess(exchange)
            head = TestServer.testResponse(response)
            if !exchange.isStream {
                body = response.body
                finished = true
            }
            return
        }
        // A long bound: the slow-reader tests move megabytes, and the suite shares a loaded host.
        let connection = try HTTPConnection(port: server.port, timeout: Self.patience)
        if let receiveBuffer { connection.setReceiveBufferSize(receiveBuffer) }
        var request = "GET \(target) HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try connection.sendRaw(Array((request + "\r\n").utf8))
        source = .socket(connection)
        head = try connection.readHead()
    }

    deinit {
        // The client goes away, as a socket closed at the end of a test does.
        if case .inProcess(let exchange) = source { exchange.cancel() }
    }

    /// How long a read waits before the test fails instead of hanging.
    private static let patience: Duration = .seconds(60)

    /// The socket (fails the test on an in-process stream).
    var connection: HTTPConnection {
        guard case .socket(let connection) = source else { preconditionFailure("an in-process stream has no socket") }
        return connection
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
            try read()
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
        while !finished { try read() }
    }

    /// Whether nothing but `next` blocks is buffered once the stream ended.
    var isDrained: Bool { finished && body.isEmpty }

    /// Whether no whole block is there to read now (in process only: what the pipeline wrote so
    /// far; with a `ManualClock` whatever a step of time sends is written before `advance` returns).
    var hasNothingNew: Bool {
        takeWhatArrived()
        return Self.blankLine(in: body) == nil
    }

    /// Whether the server ended the stream by now (in process only).
    var hasEnded: Bool {
        takeWhatArrived()
        return finished
    }

    /// Moves what the pipeline wrote so far into `body`, without waiting.
    private func takeWhatArrived() {
        guard case .inProcess(let exchange) = source else { preconditionFailure("in process only") }
        let complete = exchange.isComplete
        let all = exchange.response?.body ?? []
        if all.count > taken {
            body += all[taken...]
            taken = all.count
        }
        if complete { finished = true }
    }

    /// Bytes of an in-process body already moved into `body`.
    private var taken = 0

    /// Takes more of the body: a chunk off the socket, or whatever the pipeline wrote since.
    private func read() throws {
        switch source {
        case .socket: try readChunk()
        case .inProcess(let exchange):
            let seen = taken
            let all = exchange.body(within: Self.patience) { $0.count > seen }
            if all.count > taken {
                body += all[taken...]
                taken = all.count
            } else if exchange.isComplete {
                finished = true
            } else {
                throw TestClientError(description: "nothing more within 60 s")
            }
        }
    }

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
