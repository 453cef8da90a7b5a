import Glibc
import RecentsCompression
import RecentsTestSupport
import Testing

@testable import RecentsCLI
@testable import RecentsClientCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#endif

/// The command line's transport asks for compressed answers and hands identity bytes up, for
/// whole answers and for event streams, decoded event by event.
@Suite(.timeLimit(.minutes(1)))
struct SocketTransportCompressionTests {
    static let rows = Array(String(repeating: "{\"id\":\"c-1\",\"peer\":{\"id\":\"bob\"}},", count: 300).utf8)

    /// A GET of `path` on the canned server.
    func request(_ server: CannedServer, _ path: String) throws -> TransportRequest {
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)\(path)"))
        return TransportRequest(method: "GET", url: url, headers: [], body: nil, timeout: 10)
    }

    /// Serves one connection on a task of its own: reads the request, sends `answer`, closes.
    func serve(_ server: CannedServer, _ answer: [UInt8]) -> Task<String?, Never> {
        Task.detached {
            let connection = server.accept()
            guard connection >= 0 else { return nil }
            defer { close(connection) }
            let request = CannedServer.readRequest(connection)
            CannedServer.send(answer, on: connection)
            return request?.head
        }
    }

    @Test func aWholeAnswerIsAskedForCompressedAndDecoded() async throws {
        let server = try CannedServer()
        let coded = Brotli.encode(Self.rows, quality: 5)
        let head = "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: \(coded.count)\r\n\r\n"
        let served = serve(server, Array(head.utf8) + coded)
        let response = try await SocketTransport().send(request(server, "/v1/lists/a/rows"))
        #expect(response.status == 200)
        #expect(Array(response.body) == Self.rows)
        let sent = try #require(await served.value)
        #expect(sent.contains("\r\nAccept-Encoding: br, gzip\r\n"))
    }

    @Test func anEventStreamIsDecodedEventByEvent() async throws {
        let server = try CannedServer()
        let encoder = GzipStreamEncoder(level: 6, windowBits: 12, memoryLevel: 5)
        let events = (1...5).map { Array("id: e.\($0)\nevent: transition\ndata: {\"to\":\($0)}\n\n".utf8) }
        var answer = Array(
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
                .utf8)
        for event in events { answer += CannedServer.chunk(encoder.encode(event)) }
        answer += CannedServer.chunk(encoder.finish()) + CannedServer.chunk([]) + [13, 10]
        let served = serve(server, answer)
        let stream = SocketTransport().stream(try request(server, "/v1/lists/a/events"), capacity: 64)
        var bodies: [[UInt8]] = []
        for try await part in stream.parts {
            if case .body(let data) = part { bodies.append(Array(data)) }
        }
        // One chunk, one whole event: nothing waits for the next chunk to become readable.
        #expect(bodies == events)
        #expect(try #require(await served.value).contains("\r\nAccept-Encoding: br, gzip\r\n"))
    }
}
