import Foundation
import RecentsCompression
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// Issue 23: answers in br or gzip when the client accepts them (RFC 9110 §12.5.3), each coding
/// with its own strong ETag, and request bodies read in gzip or br up to `--max-body-bytes`.
@Suite struct CompressionTests {
    /// A list with enough calls that its rows are well over the 1 KB threshold.
    private func seeded(_ backend: Backend, calls: Int = 60) throws -> TestServer {
        let server = try TestServer(backend)
        let batch = (0..<calls).map {
            callJSON("c-\($0)", peer: "p\($0 % 7)", name: "Peer \($0 % 7)", timestamp: 1_764_460_800 + $0 * 600)
        }
        let posted = try server.request(
            "POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(batch.joined(separator: ","))]}"#)
        #expect(posted.status == 201)
        return server
    }

    private func inflated(_ response: TestResponse) throws -> [UInt8] {
        guard let name = response.header("Content-Encoding") else { return response.body }
        let coding = try #require(ContentCoding(name))
        return try coding.decode(response.body, limit: 64 << 20)
    }

    /// Every class of answer worth compressing, compressed, inflates byte for byte to its identity answer.
    @Test(
        arguments: Backend.available,
        [
            "/v1/lists/alice/rows?limit=50", "/v1/lists/alice/transitions?limit=50", "/v1/openapi.json", "/",
            "/list-view.js", "/style.css",
        ])
    func compressedAnswersInflateToTheIdentityAnswer(backend: Backend, target: String) throws {
        let server = try seeded(backend)
        let identity = try server.request("GET", target)
        #expect(identity.status == 200)
        #expect(identity.header("Content-Encoding") == nil)
        for coding in ["gzip", "br"] {
            let coded = try server.request("GET", target, headers: [("Accept-Encoding", coding)])
            #expect(coded.status == 200)
            #expect(coded.header("Content-Encoding") == coding, "\(target) in \(coding)")
            #expect(coded.body.count < identity.body.count)
            #expect(try inflated(coded) == identity.body, "\(target) in \(coding)")
            #expect(coded.header("Vary")?.contains("Accept-Encoding") == true)
        }
    }

    /// A long-poll woken by a write answers in the waiter's coding.
    @Test(arguments: Backend.available)
    func aWokenLongPollAnswersCompressed(backend: Backend) throws {
        let server = try seeded(backend)
        let version = int(try server.request("GET", "/v1/lists/alice").json["version"]) ?? 0
        let poll = "/v1/lists/alice/transitions?since=\(version)&limit=1000&wait=30"
        let pending = try server.begin("GET", poll, headers: [("Accept-Encoding", "gzip")])
        #expect(try server.waitForParked(1))
        let more = (0..<20).map { callJSON("n-\($0)", peer: "new\($0)", timestamp: 1_800_000_000 + $0) }
        _ = try server.request("POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(more.joined(separator: ","))]}"#)
        let answer = try server.finish(pending)
        #expect(answer.header("Content-Encoding") == "gzip")
        let json = try JSONSerialization.jsonObject(with: Data(try inflated(answer))) as? [String: Any]
        #expect((json?["inserts"] as? [Any])?.count == 20)
    }

    @Test(arguments: [
        ("gzip;q=0, br;q=0", "identity"), ("*;q=0, identity", "identity"), ("br;q=0.5, gzip", "gzip"),
        ("*", "br"), ("identity;q=1, gzip;q=0.5", "identity"), ("x-gzip", "gzip"), ("deflate, zstd", "identity"),
        ("gzip;q=0.8, br;q=0.8", "br"), ("", "identity"),
    ])
    func negotiationFollowsTheWeights(accept: String, expected: String) throws {
        let server = try seeded(.sqlite)
        let response = try server.request(
            "GET", "/v1/lists/alice/rows?limit=50", headers: [("Accept-Encoding", accept)])
        #expect(response.status == 200)
        #expect((response.header("Content-Encoding") ?? "identity") == expected, "Accept-Encoding: \(accept)")
    }

    @Test(arguments: ["identity;q=0", "*;q=0", "gzip;q=0, br;q=0, identity;q=0", "deflate, identity;q=0"])
    func refusingEveryCodingIs406(accept: String) throws {
        let server = try seeded(.sqlite)
        let refused = try server.request(
            "GET", "/v1/lists/alice/rows?limit=50", headers: [("Accept-Encoding", "\(accept), br;q=0, gzip;q=0")])
        #expect(refused.status == 406)
        #expect(refused.json["type"] as? String == "not-acceptable")
        // Refusing identity alone still gets a coding.
        let coded = try server.request(
            "GET", "/v1/lists/alice/rows?limit=50", headers: [("Accept-Encoding", "identity;q=0, gzip")])
        #expect(coded.header("Content-Encoding") == "gzip")
        // A small answer goes out coded rather than refused when identity is refused.
        let small = try server.request("GET", "/v1/lists/alice", headers: [("Accept-Encoding", "identity;q=0, gzip")])
        #expect(small.status == 200)
        #expect(small.header("Content-Encoding") == "gzip")
    }

    @Test(arguments: Backend.available)
    func eachCodingHasItsOwnETagAndItsOwn304(backend: Backend) throws {
        let server = try seeded(backend)
        var tags: Set<String> = []
        for coding in ["identity", "gzip", "br"] {
            let first = try server.request(
                "GET", "/v1/lists/alice/rows?limit=50", headers: [("Accept-Encoding", coding)])
            let tag = try #require(first.header("ETag"))
            tags.insert(tag)
            let again = try server.request(
                "GET", "/v1/lists/alice/rows?limit=50", headers: [("Accept-Encoding", coding), ("If-None-Match", tag)])
            #expect(again.status == 304, "\(coding)")
            #expect(again.header("ETag") == tag)
            #expect(again.header("Vary")?.contains("Accept-Encoding") == true)
        }
        #expect(tags.count == 3, "\(tags)")
        // Another coding's tag does not match: the client gets the bytes of its own coding.
        let gzipTag = try #require(
            try server.request("GET", "/v1/lists/alice/rows?limit=50", headers: [("Accept-Encoding", "gzip")]).header(
                "ETag"))
        let crossed = try server.request(
            "GET", "/v1/lists/alice/rows?limit=50", headers: [("Accept-Encoding", "br"), ("If-None-Match", gzipTag)])
        #expect(crossed.status == 200)
        #expect(crossed.header("Content-Encoding") == "br")
    }

    @Test func smallAnswersAreNotCompressedAndDoNotVary() throws {
        let server = try seeded(.sqlite)
        let list = try server.request("GET", "/v1/lists/alice", headers: [("Accept-Encoding", "gzip, br")])
        #expect(list.header("Content-Encoding") == nil)
        #expect(list.header("Vary")?.contains("Accept-Encoding") != true)
    }

    @Test func headAnswersLikeGet() throws {
        let server = try TestServer(.sqlite, socket: true)
        let get = try server.request("GET", "/v1/openapi.json", headers: [("Accept-Encoding", "br")])
        let head = try server.request("HEAD", "/v1/openapi.json", headers: [("Accept-Encoding", "br")])
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        for name in ["Content-Encoding", "ETag", "Content-Length", "Vary"] {
            #expect(head.header(name) == get.header(name), "\(name)")
        }
    }

    @Test func theEmbeddedCopiesAreServedAsBuiltWithTheirOwnTags() throws {
        let server = try TestServer(.sqlite)
        let file = try #require(EmbeddedWeb.file(at: "app.js"))
        let br = try server.request("GET", "/app.js", headers: [("Accept-Encoding", "br")])
        #expect(br.body == file.br?.bytes)
        #expect(br.header("ETag") == file.br?.etag)
        let gzip = try server.request("GET", "/app.js", headers: [("Accept-Encoding", "gzip")])
        #expect(gzip.body == file.gzip?.bytes)
        #expect(gzip.header("ETag") == file.gzip?.etag)
    }

    @Test(arguments: Backend.available)
    func theViewCacheChargesTheCopiesItKeeps(backend: Backend) throws {
        let server = try seeded(backend)
        _ = try server.request("GET", "/v1/lists/alice/rows?limit=50")
        let before = try #require(server.views?.usage.bytes)
        let gzip = try server.request("GET", "/v1/lists/alice/rows?limit=50", headers: [("Accept-Encoding", "gzip")])
        let after = try #require(server.views?.usage.bytes)
        #expect(after == before + gzip.body.count)
        // A hit makes nothing new.
        _ = try server.request("GET", "/v1/lists/alice/rows?limit=50", headers: [("Accept-Encoding", "gzip")])
        #expect(server.views?.usage.bytes == after)
    }

    @Test func compressionCanBeTurnedOff() throws {
        let server = try TestServer(.sqlite) { $0.compression.enabled = false }
        let response = try server.request("GET", "/v1/openapi.json", headers: [("Accept-Encoding", "gzip, br")])
        #expect(response.header("Content-Encoding") == nil)
        #expect(
            try server.request("GET", "/v1/openapi.json", headers: [("Accept-Encoding", "identity;q=0")]).status == 406)
    }
}

/// Request bodies in a content coding (RFC 9110 §8.4): read when gzip or br, inflated to at most
/// `--max-body-bytes` (a bomb gets 413 after that much work), refused with 415 otherwise.
@Suite struct CompressedRequestTests {
    static func batch(_ count: Int) -> [UInt8] {
        let calls = (0..<count).map { callJSON("c-\($0)", timestamp: 1_764_460_800 + $0) }
        return Array(#"{"calls": [\#(calls.joined(separator: ","))]}"#.utf8)
    }

    @Test(arguments: Backend.available, ["gzip", "br", "gzip, br"])
    func aCompressedBatchIsStoredAsIfPlain(backend: Backend, coding: String) throws {
        let server = try TestServer(backend)
        let plain = Self.batch(1000)
        var body = plain
        for name in coding.split(separator: ",") {
            body = try #require(ContentCoding(name.trimmingCharacters(in: .whitespaces))).encode(body)
        }
        #expect(body.count * 5 < plain.count, "a batch of 1,000 calls shrinks (\(plain.count) → \(body.count))")
        let response = try server.request(
            "POST", "/v1/lists/alice/calls", bytes: body, headers: [("Content-Encoding", coding)])
        #expect(response.status == 201, "\(response.text.prefix(200))")
        #expect(int(try server.request("GET", "/v1/lists/alice").json["callCount"]) == 1000)
    }

    @Test func aGzipBombIs413() throws {
        let server = try TestServer(.sqlite) { $0.http.maxBodyBytes = 1 << 20 }
        // 64 MiB of zeros inflate from ~64 KB.
        let bomb = Gzip.encode([UInt8](repeating: 0x20, count: 64 << 20), level: 9)
        #expect(bomb.count < 1 << 20)
        let response = try server.request(
            "POST", "/v1/lists/alice/calls", bytes: bomb, headers: [("Content-Encoding", "gzip")])
        #expect(response.status == 413)
        #expect(response.json["type"] as? String == "payload-too-large")
        #expect(int(try server.request("GET", "/v1/lists/alice").json["version"]) == 0)
    }

    @Test(arguments: ["x-unknown", "compress", "gzip, zstd"])
    func anUnknownCodingIs415NamingWhatIsRead(coding: String) throws {
        let server = try TestServer(.sqlite)
        let response = try server.request(
            "POST", "/v1/lists/alice/calls", bytes: Array(callJSON("c-1", timestamp: 1).utf8),
            headers: [("Content-Encoding", coding)])
        #expect(response.status == 415)
        #expect(response.json["type"] as? String == "unsupported-media-type")
        #expect(response.header("Accept-Encoding") == "gzip, br")
        #expect(int(try server.request("GET", "/v1/lists/alice").json["version"]) == 0)
    }

    @Test func aBodyThatDoesNotInflateIs400() throws {
        let server = try TestServer(.sqlite)
        let response = try server.request(
            "POST", "/v1/lists/alice/calls", bytes: Array("not gzip at all".utf8),
            headers: [("Content-Encoding", "gzip")])
        #expect(response.status == 400)
    }

    @Test func aRetryCompressedDifferentlyIsTheSameRequest() throws {
        let server = try TestServer(.sqlite)
        let plain = Array(callJSON("c-1", timestamp: 1).utf8)
        let key = ("Idempotency-Key", "k")
        let first = try server.request(
            "POST", "/v1/lists/alice/calls", bytes: Gzip.encode(plain, level: 1),
            headers: [("Content-Encoding", "gzip"), key])
        let retry = try server.request(
            "POST", "/v1/lists/alice/calls", bytes: Brotli.encode(plain), headers: [("Content-Encoding", "br"), key])
        #expect(first.status == 201)
        #expect(retry.header("Idempotent-Replayed") == "true")
    }
}
