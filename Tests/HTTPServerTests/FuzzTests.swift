import Dispatch
import Glibc
// Core's seeded generator (a fixed seed replays a failing run); reached through RecentsTestSupport,
// which depends on it by way of RecentsAuth.
import RecentsCore
import SystemSupport
import Testing

@testable import HTTPServer

private let seedCorpus: [[UInt8]] = [
    "GET /x?a=1&b=%20 HTTP/1.1\r\nHost: a\r\nX-Request-Id: r1\r\n\r\n",
    "POST /e HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
    "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;e=1\r\nhello\r\n0\r\nT: 1\r\n\r\n",
    "HEAD /h HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\n\r\n",
    "GET http://h/p/%41 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
    "PUT /u HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc",
    "DELETE /d/%E2%82%AC HTTP/1.1\r\nHost: h\r\nA: b\r\nA: c\r\n\r\n",
].map { Array($0.utf8) }

/// Produces one random or mutated request (about one in five is left valid).
private func mutate(_ rng: inout SplitMix64) -> [UInt8] {
    var r = seedCorpus[Int(rng.next() % UInt64(seedCorpus.count))]
    switch rng.next() % 10 {
    case 0:  // byte flips
        for _ in 0..<(1 + rng.next() % 4) {
            r[Int(rng.next() % UInt64(r.count))] ^= UInt8(truncatingIfNeeded: rng.next())
        }
    case 1:  // truncation
        r = Array(r[0..<Int(rng.next() % UInt64(r.count))])
    case 2:  // duplicated header line
        r = Array("GET / HTTP/1.1\r\nContent-Length: 0\r\nContent-Length: 0\r\nHost: a\r\nHost: a\r\n\r\n".utf8)
    case 3:  // huge numbers
        let huge = ["99999999999999999999", "100000000000", "ffffffffffffffffff", "-1", "1e9"][Int(rng.next() % 5)]
        r = Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \(huge)\r\n\r\n".utf8)
        if rng.next() % 2 == 0 {
            r = Array("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\(huge)\r\nabc\r\n".utf8)
        }
    case 4:  // NULs
        r.insert(0, at: Int(rng.next() % UInt64(r.count)))
    case 5:  // invalid UTF-8
        r.insert(contentsOf: [0xC3, 0x28, 0xFF], at: Int(rng.next() % UInt64(r.count)))
    case 6:  // random garbage
        r = (0..<(1 + rng.next() % 64)).map { _ in UInt8(truncatingIfNeeded: rng.next()) } + [13, 10, 13, 10]
    case 7:  // smuggling combinations
        r = Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".utf8)
    default:
        break  // valid request
    }
    return r
}

/// Part of the serialized `ServerTests` suite so no other test opens fds while descriptors are counted.
extension ServerTests {
    @Test func serverSurvivesHundredThousandMutatedRequests() throws {
        var config = testConfiguration()
        config.maxBodyBytes = 64 * 1024
        config.headReadTimeout = .seconds(2)
        let handler: HTTPHandler = { req, r in r.respond(.json(200, req.body)) }
        let server = HTTPServer(configuration: config, logger: Logger(level: .error), handler: handler)
        try server.start()
        defer { server.shutdown() }
        let port = server.localPort

        let workers = 4
        let connectionsPerWorker = 2500
        let requestsPerConnection = 10
        let sent = Box(0)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var rng = SplitMix64(seed: UInt64(worker + 1) &* 7919)
            var count = 0
            for _ in 0..<connectionsPerWorker {
                guard let c = TestClient(port: port, receiveTimeout: 5) else { continue }
                var batch: [UInt8] = []
                // Valid requests first, then a mutated one: most mutations make the server close the
                // connection, so this way the valid prefix is processed too.
                for i in 0..<requestsPerConnection {
                    let valid = seedCorpus[Int(rng.next() % UInt64(seedCorpus.count))]
                    batch += i == requestsPerConnection - 1 ? mutate(&rng) : valid
                    count += 1
                }
                _ = c.send(batch)
                c.shutdownWrite()
                _ = c.waitForClose()
            }
            sent.update { $0 += count }
        }
        #expect(sent.get() >= 100_000)

        let c = try #require(TestClient(port: port))
        c.send("GET /alive HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(c.readResponse()?.status == 200)
        c.send("GET /alive HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(c.readResponse()?.status == 200)
        #expect(c.waitForClose())
        #expect(waitUntil(10) { server.openConnections == 0 })
        // Exactly the listener is left among the server's sockets: no connection leaked.
        #expect(waitUntil(10) { serverSocketCount(port: port) == 1 })
        // (No process-wide descriptor count here: other suites run concurrently in this process and
        // open sockets and pipes of their own; the server's own sockets, above, are what can leak.)
        #expect(server.parkedRequests == 0)
        #expect(server.totalRequests > 50_000)
    }
}

@Suite struct ParserFuzzTests {
    /// 30,000 mutated requests straight into the parser: never a crash, and split feeding agrees with whole feeding.
    @Test func parserSurvivesMutatedRequests() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<30_000 {
            let raw = mutate(&rng)
            var whole = RequestParser(limits: .init(maxHeadBytes: 1024, maxURIBytes: 256, maxBodyBytes: 4096))
            whole.append(raw)
            let a = drain(&whole)
            var split = RequestParser(limits: .init(maxHeadBytes: 1024, maxURIBytes: 256, maxBodyBytes: 4096))
            let cut = raw.isEmpty ? 0 : Int(rng.next() % UInt64(raw.count))
            split.append(Array(raw[..<cut]))
            var b = drain(&split)
            if !b.hasSuffix("E") {
                split.append(Array(raw[cut...]))
                b += drain(&split)
            }
            if a != b {
                Issue.record("split at \(cut) differs for \(raw)")
                return
            }
        }
    }

    private func drain(_ p: inout RequestParser) -> String {
        var out = ""
        while true {
            switch p.next() {
            case .request(let r, _): out += "R\(r.method)\(r.target)\(r.body.count);"
            case .head: p.admitBody()
            case .needMore: return out
            case .error(let s, _): return out + "\(s)E"
            }
        }
    }
}
