import Glibc
import RecentsCompression
import RecentsTestSupport
import Testing

@testable import HTTPClient

/// Opt-in compression: `Accept-Encoding: br, gzip` and decoded answers, coded request bodies, and
/// `HTTPBodyDecoder` for streamed answers, against a loopback server with canned answers.
@Suite struct HTTPCompressionTests {
    static let content = Array(String(repeating: "{\"id\":\"c-1\",\"peer\":{\"id\":\"bob\"}},", count: 200).utf8)

    /// Sends `answer` on a fresh connection, runs `exchange` on the client, and returns what the
    /// client sent (the answer is queued before the request, so one thread plays both sides).
    func exchange(
        answer: [UInt8], configure: (HTTPConnection) -> Void = { _ in },
        _ exchange: (HTTPConnection) throws -> Void
    ) throws -> (head: String, body: [UInt8]) {
        let server = try CannedServer()
        let connection = try HTTPConnection(port: server.port, timeout: .seconds(5))
        configure(connection)
        let accepted = server.accept()
        try #require(accepted >= 0)
        defer { close(accepted) }
        CannedServer.send(answer, on: accepted)
        try exchange(connection)
        return try #require(CannedServer.readRequest(accepted))
    }

    /// A 200 answer carrying `body`, labelled with `coding`, framed by length or in two chunks.
    func answer(_ body: [UInt8], coding: String?, chunked: Bool = false) -> [UInt8] {
        var head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        if let coding { head += "Content-Encoding: \(coding)\r\n" }
        head += chunked ? "Transfer-Encoding: chunked\r\n\r\n" : "Content-Length: \(body.count)\r\n\r\n"
        guard chunked else { return Array(head.utf8) + body }
        let middle = body.count / 2
        return Array(head.utf8) + CannedServer.chunk(Array(body[..<middle]))
            + CannedServer.chunk(Array(body[middle...]))
            + CannedServer.chunk([]) + [13, 10]
    }

    @Test func aCompressedAnswerIsAskedForAndDecoded() throws {
        var response: HTTPClientResponse?
        let sent = try exchange(
            answer: answer(Gzip.encode(Self.content), coding: "gzip"), configure: { $0.acceptsCompression = true }
        ) { response = try $0.request("GET", "/v1/lists/a/rows") }
        #expect(sent.head.contains("\r\nAccept-Encoding: br, gzip"))
        #expect(response?.body == Self.content)
        #expect(response?.header("Content-Encoding") == "gzip")
    }

    @Test func aChunkedBrotliAnswerIsDecoded() throws {
        var response: HTTPClientResponse?
        _ = try exchange(
            answer: answer(Brotli.encode(Self.content), coding: "br", chunked: true),
            configure: { $0.acceptsCompression = true }
        ) { response = try $0.request("GET", "/") }
        #expect(response?.body == Self.content)
    }

    @Test func anIdentityAnswerPassesThrough() throws {
        var response: HTTPClientResponse?
        _ = try exchange(answer: answer(Self.content, coding: nil), configure: { $0.acceptsCompression = true }) {
            response = try $0.request("GET", "/")
        }
        #expect(response?.body == Self.content)
    }

    @Test func compressionIsOffByDefault() throws {
        let coded = Gzip.encode(Self.content)
        var response: HTTPClientResponse?
        let sent = try exchange(answer: answer(coded, coding: "gzip")) { response = try $0.request("GET", "/") }
        #expect(!sent.head.lowercased().contains("accept-encoding"))
        #expect(response?.body == coded)
    }

    @Test func aRequestsOwnAcceptEncodingWins() throws {
        let sent = try exchange(answer: answer([], coding: nil), configure: { $0.acceptsCompression = true }) {
            try $0.request("GET", "/", body: nil, headers: [("Accept-Encoding", "gzip")])
        }
        #expect(sent.head.contains("\r\nAccept-Encoding: gzip"))
        #expect(!sent.head.contains("br, gzip"))
    }

    @Test(arguments: [ContentCoding.gzip, .br])
    func aRequestBodyIsSentCoded(coding: ContentCoding) throws {
        let sent = try exchange(answer: answer([], coding: nil)) {
            try $0.request("POST", "/v1/lists/a/calls", bytes: Self.content, contentEncoding: coding)
        }
        #expect(sent.head.contains("\r\nContent-Encoding: \(coding.name)\r\n"))
        #expect((sent.head + "\r\n").contains("\r\nContent-Length: \(sent.body.count)\r\n"))
        #expect(sent.body.count < Self.content.count / 4)
        #expect(try coding.decode(sent.body, limit: 1 << 20) == Self.content)
    }

    @Test func aDecodedBodyPastTheCapFails() throws {
        let bomb = Gzip.encode([UInt8](repeating: 0, count: 1 << 20))
        _ = try exchange(
            answer: answer(bomb, coding: "gzip"),
            configure: {
                $0.acceptsCompression = true
                $0.maxDecodedBodyBytes = 1000
            }
        ) { connection in
            let error = #expect(throws: HTTPClientError.self) { try connection.request("GET", "/") }
            #expect(error?.description.contains("larger than 1000 bytes") == true)
        }
    }

    @Test func anUnknownCodingFails() throws {
        _ = try exchange(answer: answer([1, 2, 3], coding: "zstd"), configure: { $0.acceptsCompression = true }) {
            connection in
            let error = #expect(throws: HTTPClientError.self) { try connection.request("GET", "/") }
            #expect(error?.description.contains("'zstd'") == true)
        }
    }

    @Test func aStreamedBodyDecodesPieceByPiece() throws {
        let encoder = BrotliStreamEncoder(quality: 5, window: 14)
        let decoder = try HTTPBodyDecoder(contentEncoding: "br")
        #expect(!decoder.isIdentity)
        for n in 0..<20 {
            let event = Array("event: transition\ndata: {\"to\":\(n)}\n\n".utf8)
            #expect(try decoder.decode(encoder.encode(event)) == event)
        }
        _ = try decoder.decode(encoder.finish())
        try decoder.finish()
    }

    @Test func stackedCodingsAreUndoneInReverse() throws {
        let decoder = try HTTPBodyDecoder(contentEncoding: "gzip, br")
        #expect(try decoder.decode(Brotli.encode(Gzip.encode(Self.content))) == Self.content)
        try decoder.finish()
        let cut = try HTTPBodyDecoder(contentEncoding: "gzip")
        _ = try cut.decode(Array(Gzip.encode(Self.content).dropLast(4)))
        #expect(throws: HTTPClientError.self) { try cut.finish() }
        #expect(try HTTPBodyDecoder(contentEncoding: nil).isIdentity)
    }
}
