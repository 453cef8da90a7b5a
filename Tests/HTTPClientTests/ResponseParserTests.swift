import Testing

@testable import HTTPClient

@Suite struct ResponseParserTests {
    private func parser(_ text: String) -> ResponseParser {
        var parser = ResponseParser()
        parser.append(Array(text.utf8)[...])
        return parser
    }

    @Test func contentLengthFramesTheBodyAndKeepsWhatFollows() throws {
        var parser = parser(
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-A: 1\r\nx-a: 2\r\n\r\nhiHTTP/1.1 204 No Content\r\n\r\n")
        let first = try #require(try parser.next(head: false, closed: false))
        #expect(first.status == 200)
        #expect(first.reason == "OK")
        #expect(first.text == "hi")
        #expect(first.headers["x-a"] == "1, 2")
        #expect(first.header("CONTENT-LENGTH") == "2")
        let second = try #require(try parser.next(head: false, closed: false))
        #expect(second.status == 204)
        #expect(parser.buffer.isEmpty)
    }

    @Test func waitsForTheWholeBody() throws {
        var parser = parser("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab")
        #expect(try parser.next(head: false, closed: false) == nil)
        #expect(throws: HTTPClientError.self) { try parser.next(head: false, closed: true) }
    }

    @Test func headAnswersHaveNoBody() throws {
        var parser = parser("HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n")
        let response = try #require(try parser.next(head: true, closed: false))
        #expect(response.body.isEmpty)
        #expect(response.headers["content-length"] == "7")
    }

    @Test func chunkedBodiesAreDecodedWithTrailers() throws {
        var parser = parser(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nWiki\r\n5\r\npedia\r\n0\r\nT: 1\r\n\r\nrest")
        let response = try #require(try parser.next(head: false, closed: false))
        #expect(response.text == "Wikipedia")
        #expect(parser.buffer == Array("rest".utf8))
    }

    @Test func anIncompleteChunkedBodyWaits() throws {
        var parser = parser("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWi")
        #expect(try parser.next(head: false, closed: false) == nil)
    }

    @Test func anUnframedBodyEndsAtClose() throws {
        var parser = parser("HTTP/1.1 200 OK\r\n\r\nuntil close")
        #expect(try parser.next(head: false, closed: false) == nil)
        #expect(try parser.next(head: false, closed: true)?.text == "until close")
    }

    @Test(arguments: [
        "HTTP/1.1 abc OK\r\n\r\n", "SPDY/3 200 OK\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
    ])
    func malformedAnswersThrow(_ text: String) {
        var parser = parser(text)
        #expect(throws: HTTPClientError.self) { try parser.next(head: false, closed: false) }
    }
}
