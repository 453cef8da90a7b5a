import Testing

@testable import HTTPServer

/// Feeds `chunks` to a fresh parser and summarises every event until it needs more or fails.
private func events(_ chunks: [[UInt8]], limits: RequestParser.Limits = .init()) -> [String] {
    var parser = RequestParser(limits: limits)
    var out: [String] = []
    for chunk in chunks {
        parser.append(chunk)
        loop: while true {
            switch parser.next() {
            case .request(let r, let keepAlive):
                let query = r.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
                // Host is summarised as the authority the parser settled on, not as a field.
                let headers = r.headers.filter { $0.name.lowercased() != "host" }.map { "\($0.name):\($0.value)" }
                    .joined(separator: "|")
                out.append(
                    "\(r.method) \(r.path) \(r.pathSegments) q=\(query) h=\(headers) b=\(String(decoding: r.body, as: UTF8.self)) v=\(r.versionMinor) ka=\(keepAlive) host=\(r.host)"
                )
            case .head:
                // The server's admission lets every body be read here.
                parser.admitBody()
            case .needMore:
                break loop
            case .error(let status, _):
                out.append("error \(status)")
                return out
            }
        }
    }
    return out
}

private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

@Suite struct ParserTests {
    /// Valid requests and a fragment of the expected summary.
    static let valid: [(String, String, [String])] = [
        ("simple GET", "GET /x HTTP/1.1\r\nHost: a\r\n\r\n", ["GET /x [\"x\"] q= h= b= v=1 ka=true host=a"]),
        ("root", "GET / HTTP/1.1\r\nHost: h\r\n\r\n", ["GET / [] q= h= b= v=1 ka=true host=h"]),
        (
            "query decoding", "GET /a%20b/c?x=1+2&y=%C3%A9&z HTTP/1.1\r\nHost: h\r\n\r\n",
            ["GET /a%20b/c [\"a b\", \"c\"] q=x=1 2&y=é&z= h= b= v=1 ka=true host=h"]
        ),
        (
            "absolute form", "GET http://example.com/p/q?k=v HTTP/1.1\r\nHost: example.com\r\n\r\n",
            ["GET /p/q [\"p\", \"q\"] q=k=v h= b= v=1 ka=true host=example.com"]
        ),
        (
            "content-length body", "POST /e HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello",
            ["POST /e [\"e\"] q= h=Content-Length:5 b=hello v=1 ka=true host=h"]
        ),
        (
            "chunked with extension and trailer",
            "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n",
            ["POST /c [\"c\"] q= h=Transfer-Encoding:chunked b=hello world v=1 ka=true host=h"]
        ),
        (
            "http/1.0 default close", "GET /o HTTP/1.0\r\n\r\n", ["GET /o [\"o\"] q= h= b= v=0 ka=false host="]
        ),
        (
            "http/1.0 keep-alive", "GET /o HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
            ["GET /o [\"o\"] q= h=Connection:keep-alive b= v=0 ka=true host="]
        ),
        (
            "connection close", "GET /c HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
            ["GET /c [\"c\"] q= h=Connection:close b= v=1 ka=false host=h"]
        ),
        (
            "repeated headers and OWS", "GET /r HTTP/1.1\r\nHost: h\r\nA:  1 \r\na:2\r\n\r\n",
            ["GET /r [\"r\"] q= h=A:1|a:2 b= v=1 ka=true host=h"]
        ),
        (
            "pipelined",
            "GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\nPOST /3 HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\nx",
            [
                "GET /1 [\"1\"] q= h= b= v=1 ka=true host=h", "GET /2 [\"2\"] q= h= b= v=1 ka=true host=h",
                "POST /3 [\"3\"] q= h=Content-Length:1 b=x v=1 ka=true host=h",
            ]
        ),
        (
            "leading empty line", "\r\nGET /l HTTP/1.1\r\nHost: h\r\n\r\n",
            ["GET /l [\"l\"] q= h= b= v=1 ka=true host=h"]
        ),
        ("bare LF lines", "GET /n HTTP/1.1\nHost: h\nA: b\n\n", ["GET /n [\"n\"] q= h=A:b b= v=1 ka=true host=h"]),
        (
            "many segments and fields, CR LF and bare LF mixed",
            "GET /a/b//c/d/e/f/g/h/ HTTP/1.1\r\nHost: h\nA: 1\r\nB: 2\nC: 3\r\n\n",
            [
                "GET /a/b//c/d/e/f/g/h/ [\"a\", \"b\", \"\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", \"\"] q= h=A:1|B:2|C:3 b= v=1 ka=true host=h"
            ]
        ),
        (
            "utf8 header value", "GET /u HTTP/1.1\r\nHost: h\r\nX: é\r\n\r\n",
            ["GET /u [\"u\"] q= h=X:é b= v=1 ka=true host=h"]
        ),
        (
            "encoded slash stays in segment", "GET /a%2Fb HTTP/1.1\r\nHost: h\r\n\r\n",
            ["GET /a%2Fb [\"a/b\"] q= h= b= v=1 ka=true host=h"]
        ),
        (
            "absolute form: the target's host wins over the field",
            "GET http://right.example:8080/p HTTP/1.1\r\nHost: wrong.example\r\n\r\n",
            ["GET /p [\"p\"] q= h= b= v=1 ka=true host=right.example:8080"]
        ),
        ("empty host field", "GET / HTTP/1.1\r\nHost:\r\n\r\n", ["GET / [] q= h= b= v=1 ka=true host="]),
        ("http/1.0 host", "GET / HTTP/1.0\r\nhost: old\r\n\r\n", ["GET / [] q= h= b= v=0 ka=false host=old"]),
        // The target's edges, each of which a byte-wise or string-wise splitter could get wrong.
        (
            "absolute form without a path", "GET http://a.example HTTP/1.1\r\nHost: x\r\n\r\n",
            ["GET / [] q= h= b= v=1 ka=true host=a.example"]
        ),
        (
            "absolute form with only a query", "GET http://a.example?k=v HTTP/1.1\r\nHost: x\r\n\r\n",
            ["GET / [] q=k=v h= b= v=1 ka=true host=a.example"]
        ),
        (
            "absolute form with a fragment", "GET http://a.example:1/p#f HTTP/1.1\r\nHost: x\r\n\r\n",
            ["GET /p [\"p\"] q= h= b= v=1 ka=true host=a.example:1"]
        ),
        (
            "a fragment after the query", "GET /a?b=1#f HTTP/1.1\r\nHost: h\r\n\r\n",
            ["GET /a [\"a\"] q=b=1 h= b= v=1 ka=true host=h"]
        ),
        (
            "a fragment before a '?'", "GET /a#f?b=1 HTTP/1.1\r\nHost: h\r\n\r\n",
            ["GET /a [\"a\"] q= h= b= v=1 ka=true host=h"]
        ),
        (
            "empty segments are kept", "GET //a//b/ HTTP/1.1\r\nHost: h\r\n\r\n",
            ["GET //a//b/ [\"\", \"a\", \"\", \"b\", \"\"] q= h= b= v=1 ka=true host=h"]
        ),
        (
            "'+' is a space only in the query; empty pairs are dropped; the first '=' splits",
            "GET /a+b?c+d=e+f&&g==h& HTTP/1.1\r\nHost: h\r\n\r\n",
            ["GET /a+b [\"a+b\"] q=c d=e f&g==h h= b= v=1 ka=true host=h"]
        ),
        (
            "escapes in names, values and segments", "GET /%C3%A9?%C3%A9=%2B%26 HTTP/1.1\r\nHost: h\r\n\r\n",
            ["GET /%C3%A9 [\"é\"] q=é=+& h= b= v=1 ka=true host=h"]
        ),
        ("asterisk form", "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n", ["OPTIONS * [\"*\"] q= h= b= v=1 ka=true host=h"]),
        (
            "connection tokens are case-insensitive and trimmed",
            "GET / HTTP/1.0\r\nConnection: foo , Keep-Alive \r\n\r\n",
            ["GET / [] q= h=Connection:foo , Keep-Alive b= v=0 ka=true host="]
        ),
        (
            "a close token among others", "GET / HTTP/1.1\r\nHost: h\r\nConnection: foo,CLOSE\r\n\r\n",
            ["GET / [] q= h=Connection:foo,CLOSE b= v=1 ka=false host=h"]
        ),
        (
            "chunked is case-insensitive",
            "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding:  Chunked \r\n\r\n1\r\nx\r\n0\r\n\r\n",
            ["POST /c [\"c\"] q= h=Transfer-Encoding:Chunked b=x v=1 ka=true host=h"]
        ),
    ]

    static let invalid: [(String, String, Int)] = [
        (
            "duplicate content-length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx",
            400
        ),
        ("conflicting content-length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1, 2\r\n\r\nx", 400),
        ("CL and TE", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("TE gzip", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
        ("TE gzip, chunked", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 400),
        ("negative length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", 400),
        ("huge length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 100000000000\r\n\r\n", 413),
        ("overflowing length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n", 400),
        ("space before colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400),
        ("obs-fold", "GET / HTTP/1.1\r\nHost: h\r\nA: b\r\n c\r\n\r\n", 400),
        ("control char in value", "GET / HTTP/1.1\r\nHost: h\r\nA: b\u{01}c\r\n\r\n", 400),
        ("NUL in target", "GET /\u{0} HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("bad version", "GET / HTTP/9\r\n\r\n", 400),
        ("http/2 version", "GET / HTTP/2.0\r\n\r\n", 505),
        ("a lowercase HTTP-name", "GET / http/1.1\r\nHost: h\r\n\r\n", 400),
        ("a lowercase HTTP-name, other version", "GET / http/2.0\r\nHost: h\r\n\r\n", 400),
        ("missing target", "GET HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("relative target", "GET foo HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("bad percent", "GET /%zz HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("percent to invalid utf8", "GET /%ff HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("bad chunk size", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        (
            "chunk missing CRLF",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n0\r\n\r\n", 400
        ),
        ("empty header name", "GET / HTTP/1.1\r\nHost: h\r\n: x\r\n\r\n", 400),
        ("missing host", "GET / HTTP/1.1\r\n\r\n", 400),
        ("missing host, absolute form", "GET http://a.example/ HTTP/1.1\r\n\r\n", 400),
        ("two host fields", "GET / HTTP/1.1\r\nHost: a\r\nHOST: b\r\n\r\n", 400),
        ("the same host twice", "GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", 400),
        ("a host list", "GET / HTTP/1.1\r\nHost: a, b\r\n\r\n", 400),
        ("no colon", "GET / HTTP/1.1\r\nHost: h\r\nnocolon\r\n\r\n", 400),
        ("a cut escape", "GET /a%4 HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("a bad escape in the query", "GET /a?x=%zz HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("invalid UTF-8 in a query name", "GET /a?%C3=1 HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("chunked twice", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", 400),
    ]

    @Test(arguments: 0..<valid.count) func validRequestParses(_ i: Int) {
        let (name, raw, expected) = Self.valid[i]
        #expect(events([bytes(raw)]) == expected, "\(name)")
    }

    @Test(arguments: 0..<invalid.count) func invalidRequestIsRejected(_ i: Int) {
        let (name, raw, status) = Self.invalid[i]
        #expect(events([bytes(raw)]) == ["error \(status)"], "\(name)")
    }

    @Test func invalidUTF8InHeaderIsRejected() {
        var raw = bytes("GET / HTTP/1.1\r\nHost: h\r\nX: ")
        raw += [0xFF, 0xFE]
        raw += bytes("\r\n\r\n")
        #expect(events([raw]) == ["error 400"])
    }

    /// Every split position and one byte at a time give the same events as one chunk (valid and invalid).
    @Test func everySplitGivesSameResult() {
        let corpus = Self.valid.map { bytes($0.1) } + Self.invalid.map { bytes($0.1) }
        for raw in corpus {
            let whole = events([raw])
            for cut in 0...raw.count {
                #expect(events([Array(raw[..<cut]), Array(raw[cut...])]) == whole)
            }
            #expect(events(raw.map { [$0] }) == whole)
        }
    }

    @Test func limitsMapToStatuses() {
        let limits = RequestParser.Limits(maxHeadBytes: 200, maxURIBytes: 50, maxBodyBytes: 10)
        let longURI = "GET /" + String(repeating: "a", count: 60) + " HTTP/1.1\r\nHost: h\r\n\r\n"
        #expect(events([bytes(longURI)], limits: limits) == ["error 414"])
        let bigHead = "GET / HTTP/1.1\r\nHost: h\r\nA: " + String(repeating: "b", count: 300) + "\r\n\r\n"
        #expect(events([bytes(bigHead)], limits: limits) == ["error 431"])
        #expect(
            events([bytes("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n")], limits: limits) == ["error 413"]
        )
        let chunked = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n"
        #expect(events([bytes(chunked)], limits: limits) == ["error 413"])
        // An unterminated huge head is rejected before it is complete.
        #expect(
            events([bytes("GET / HTTP/1.1\r\nHost: h\r\nA: " + String(repeating: "b", count: 300))], limits: limits)
                == [
                    "error 431"
                ])
    }

    @Test func expectContinueIsOfferedOnceBeforeTheBody() {
        var parser = RequestParser(limits: .init())
        parser.append(bytes("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n"))
        guard case .head = parser.next() else {
            Issue.record("expected the head")
            return
        }
        // Not before the head is admitted: a refused one gets its refusal instead of 100.
        let beforeAdmission = parser.takeContinueRequest()
        #expect(!beforeAdmission)
        parser.admitBody()
        guard case .needMore = parser.next() else {
            Issue.record("expected needMore")
            return
        }
        let first = parser.takeContinueRequest()
        let second = parser.takeContinueRequest()
        #expect(first)
        #expect(!second)
        parser.append(bytes("abc"))
        guard case .request(let r, _) = parser.next() else {
            Issue.record("expected request")
            return
        }
        #expect(r.body == bytes("abc"))
    }

    @Test func headersLookupIsCaseInsensitiveAndKeepsRepeats() {
        var h = HTTPHeaders()
        h.add("Set-Cookie", "a")
        h.add("set-cookie", "b")
        h.add("X-Y", "z")
        #expect(h["SET-COOKIE"] == "a")
        #expect(h.values(for: "Set-Cookie") == ["a", "b"])
        #expect(h["x-y"] == "z")
        #expect(h["missing"] == nil)
        #expect(h.map(\.name) == ["Set-Cookie", "set-cookie", "X-Y"])
    }

    @Test func reasonPhrasesAndDates() {
        #expect(HTTPResponse.reasonPhrase(431) == "Request Header Fields Too Large")
        #expect(HTTPResponse.reasonPhrase(304) == "Not Modified")
        #expect(HTTPDate.imfFixdate(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}
