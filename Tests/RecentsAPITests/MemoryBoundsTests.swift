import Foundation
import RecentsCore
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// Every table a client can grow stays within its bound, and over the bound answers stay right.
@Suite struct MemoryBoundsTests {
    private static func key(_ list: String, tz: Int) -> ViewCache.Key {
        ViewCache.Key(list: list, parameters: ViewParameters(filter: .all, limit: 1000, tz: tz))
    }

    /// The issue's attack: 1,600 distinct views of ~300 KB each. The cache's bytes stay at its bound.
    @Test func theViewCacheStaysWithinItsBytesWhateverIsStored() {
        let cache = ViewCache(maximumBytes: 8 * 1024 * 1024)
        let body = [UInt8](repeating: 0x20, count: 300_000)
        var peak = 0
        for tz in 0..<1600 {
            cache.store(ViewCache.Entry(version: 1, etag: "\"v1\"", body: body), for: Self.key("big", tz: tz))
            peak = max(peak, cache.usage.bytes)
        }
        let usage = cache.usage
        #expect(peak <= 8 * 1024 * 1024)
        #expect(
            usage.entries == 8 * 1024 * 1024
                / ViewCache.cost(of: .init(version: 1, etag: "\"v1\"", body: body), for: Self.key("big", tz: 0)))
        #expect(usage.evictions == 1600 - usage.entries)
        // The newest views are the ones kept.
        #expect(cache.entry(for: Self.key("big", tz: 1599), version: 1) != nil)
        #expect(cache.entry(for: Self.key("big", tz: 0), version: 1) == nil)
    }

    @Test func aViewInUseOutlivesViewsNotRead() {
        let cost = ViewCache.cost(of: .init(version: 1, etag: "e", body: [1]), for: Self.key("a", tz: 0))
        let cache = ViewCache(maximumBytes: 3 * cost)
        for tz in 0..<3 { cache.store(.init(version: 1, etag: "e", body: [1]), for: Self.key("a", tz: tz)) }
        #expect(cache.entry(for: Self.key("a", tz: 0), version: 1) != nil)
        cache.store(.init(version: 1, etag: "e", body: [1]), for: Self.key("a", tz: 3))
        #expect(cache.entry(for: Self.key("a", tz: 0), version: 1) != nil)
        #expect(cache.entry(for: Self.key("a", tz: 1), version: 1) == nil)
    }

    @Test func theHeadTableKeepsAtMostItsCountOfLists() {
        let heads = ListHeads(maximumLists: 100)
        for n in 0..<10_000 { heads.observe(["list-\(n)": 1]) }
        #expect(heads.count == 100)
        #expect(heads.version(of: "list-9999") == 1)
        #expect(heads.version(of: "list-0") == nil)
    }

    /// A read that began before a head was evicted may have seen less than that head: it must
    /// not bring the list back at its older version (a client would then read behind its write).
    @Test func aReadOlderThanAnEvictionCannotMoveAHeadBack() {
        let heads = ListHeads(maximumLists: 2)
        let mark = heads.readMark
        heads.observe(["alice": 5])
        heads.observe(["b": 1])
        heads.observe(["c": 1])
        #expect(heads.version(of: "alice") == nil)
        heads.observe("alice", version: 4, readSince: mark)
        #expect(heads.version(of: "alice") == nil)
        heads.observe("alice", version: 5, readSince: heads.readMark)
        #expect(heads.version(of: "alice") == 5)
        heads.observe("alice", version: 3, readSince: heads.readMark)
        #expect(heads.version(of: "alice") == 5)
    }

    @Test(arguments: Backend.available)
    func overItsBoundTheViewCacheStillAnswersEachViewCorrectly(backend: Backend) throws {
        let server = try TestServer(backend) { $0.memory.viewCacheBytes = 0 }
        let calls = (0..<5).map { callJSON("c-\($0)", peer: "p\($0)", timestamp: 1_764_460_800 + $0) }
        let post = try server.request(
            "POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
        #expect(post.status == 201 || post.status == 200)
        for tz in [0, 60, 0, 60] {
            let rows = try server.request("GET", "/v1/lists/alice/rows?tz=\(tz)")
            #expect(rows.status == 200)
            #expect(int(rows.json["tz"]) == tz)
            #expect((rows.json["rows"] as? [Any])?.count == 5)
        }
    }

    @Test(arguments: Backend.available)
    func overTheLongPollBoundAWaitIs503Overloaded(backend: Backend) throws {
        let server = try TestServer(backend, socket: true) { $0.memory.longPolls = 2 }
        let waiters = try (0..<2).map { _ in try server.client() }
        for waiter in waiters {
            try waiter.sendRaw(
                Array("GET /v1/lists/alice/transitions?since=0&wait=30 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        }
        #expect(try server.waitForParked(2))
        let refused = try server.request("GET", "/v1/lists/alice/transitions?since=0&wait=30")
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] == "1")
        #expect(refused.json["type"] as? String == "overloaded")
        // Without wait the same request is answered at once, and the parked ones still wait.
        #expect(try server.request("GET", "/v1/lists/alice/transitions?since=0").status == 200)
        #expect(try server.waitForParked(2))
    }
}
