import Testing

@testable import HTTPServer

/// `ResponseHead`: the bytes of a response's head, measured and copied in at once.
@Suite struct ResponseHeadTests {
    private static let date = "Sat, 05 Dec 2026 00:00:00 GMT"

    private func head(
        _ response: HTTPResponse, id: String = "id-1", framing: ResponseHead.Framing? = nil, keepAlive: Bool = true,
        versionMinor: Int = 1
    ) -> String {
        var head = ResponseHead()
        head.refreshDate(wallSeconds: 1_796_428_800)
        head.write(
            response, requestId: id, framing: framing ?? ResponseHead.framing(of: response), keepAlive: keepAlive,
            versionMinor: versionMinor)
        return String(decoding: head.bytes, as: UTF8.self)
    }

    @Test func theHeadIsTheStatusLineTheServersFieldsTheHandlersThenABlankLine() {
        let response = HTTPResponse(
            status: 200, headers: ["Content-Type": "application/json", "Vary": "Accept-Encoding", "ETag": "\"e\""],
            body: Array("{}".utf8))
        #expect(
            head(response)
                == "HTTP/1.1 200 OK\r\nDate: \(Self.date)\r\nServer: recents\r\nContent-Length: 2\r\nX-Request-Id: id-1\r\n"
                + "Content-Type: application/json\r\nVary: Accept-Encoding\r\nETag: \"e\"\r\n\r\n")
    }

    @Test func connectionFieldsFollowThePersistence() {
        let response = HTTPResponse(status: 204)
        #expect(head(response, keepAlive: false).hasSuffix("X-Request-Id: id-1\r\nConnection: close\r\n\r\n"))
        #expect(head(response, versionMinor: 0).hasSuffix("X-Request-Id: id-1\r\nConnection: keep-alive\r\n\r\n"))
        #expect(!head(response).contains("Content-Length"))
        #expect(head(response, framing: .chunked).contains("\r\nTransfer-Encoding: chunked\r\n"))
    }

    /// A value cannot end its field and start another (response splitting).
    @Test func carriageReturnsAndLineFeedsInAValueAreDropped() {
        let response = HTTPResponse(status: 200, headers: ["X-A": "one\r\nInjected: yes", "X-B": "\ntwo\r"])
        let text = head(response)
        #expect(text.contains("\r\nX-A: oneInjected: yes\r\nX-B: two\r\n"))
        #expect(!text.contains("\r\nInjected"))
    }

    /// The server writes these itself; a handler's copy, in any case, is not sent.
    @Test func aHandlersCopiesOfTheServersFieldsAreDropped() {
        let response = HTTPResponse(
            status: 200,
            headers: [
                "date": "x", "SERVER": "x", "Connection": "x", "x-request-id": "x", "Content-LENGTH": "9",
                "Transfer-Encoding": "x", "X-Request-Ix": "kept", "Dati": "kept",
            ])
        let text = head(response)
        #expect(text.components(separatedBy: "\r\n").filter { $0.hasSuffix(": x") || $0.hasSuffix(": 9") }.isEmpty)
        #expect(text.contains("\r\nX-Request-Ix: kept\r\nDati: kept\r\n"))
        #expect(text.contains("\r\nContent-Length: 0\r\n"))
    }

    /// The measured size holds whatever the handler and the request bring: every byte is there.
    @Test func aLargeHeadIsWrittenWhole() {
        var headers = HTTPHeaders()
        for i in 0..<200 { headers.add("X-Field-\(i)", String(repeating: "v", count: i * 7)) }
        let id = String(repeating: "r", count: 128)
        let text = head(
            HTTPResponse(status: 599, headers: headers), id: id, framing: .length(Int.max), versionMinor: 0)
        #expect(text.hasPrefix("HTTP/1.1 599 "))
        #expect(text.contains("\r\nContent-Length: \(Int.max)\r\nX-Request-Id: \(id)\r\n"))
        for i in 0..<200 { #expect(text.contains("\r\nX-Field-\(i): \(String(repeating: "v", count: i * 7))\r\n")) }
        #expect(text.hasSuffix("Connection: keep-alive\r\n\r\n"))
    }

    @Test(arguments: [
        (UInt64(1), "p-01"), (35, "p-0z"), (36, "p-010"), (1295, "p-0zz"), (1296, "p-0100"),
        (UInt64.max, "p-03w5e11264sgsf"),
    ])
    func requestIdsAreTheLeadAndTheCounterInBase36(counter: UInt64, expected: String) {
        #expect(EventLoop.requestId(lead: Array("p-0".utf8), counter: counter) == expected)
        #expect(String(counter, radix: 36) == String(expected.dropFirst(3)))
    }
}
