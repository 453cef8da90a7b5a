import Foundation
import RecentsAPI
import RecentsAuth
import RecentsJSON
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// `--rate-limit` over HTTP (issue 25, item 6), with the limiter's clock stopped: what is refused
/// is decided by counts alone.
@Suite struct RateLimitHTTPTests {
    let clock = ManualClock()

    /// A server with access control (HS256 and the fixtures' key set) limited to `rate` per second.
    func server(rate: Int, auth: Bool = true) throws -> (TestServer, String?) {
        let configure: (inout AppConfiguration) -> Void = { configuration in
            configuration.rateLimit.requestsPerSecond = rate
            configuration.rateLimit.clock = clock.read
        }
        guard auth else { return (try TestServer(.sqlite, configure: configure), nil) }
        let (server, path) = try TestServer.withKeySet(.sqlite, secret: true, configure)
        return (server, path)
    }

    func statuses(_ server: TestServer, _ path: String, _ token: String? = nil, count: Int) throws -> [Int] {
        try (0..<count).map { _ in try server.request("GET", path, headers: token.map(bearer) ?? []).status }
    }

    @Test func beyondTheBurstIs429WithRetryAfter() throws {
        let (server, path) = try server(rate: 2)
        defer { path.map(JWKSFixtures.remove) }
        let token = liveToken("alice")
        #expect(try statuses(server, "/v1/lists/alice/rows", token, count: 4) == [200, 200, 200, 200])
        let refused = try server.request("GET", "/v1/lists/alice/rows", headers: bearer(token))
        #expect(refused.status == 429)
        #expect(refused.headers["retry-after"] == "1")
        #expect(refused.headers["content-type"] == "application/problem+json")
        #expect(refused.json["type"] as? String == "rate-limited")
        #expect(
            refused.json["detail"] as? String
                == "More than 2 requests per second (bursts to 4) from this client; retry after 1 s.")
        #expect(try SchemaConformance().problems(try JSONParser.parse(refused.body), schema: "Problem") == [])
        clock.advance(by: .milliseconds(500))
        #expect(try statuses(server, "/v1/lists/alice/rows", token, count: 2) == [200, 429])
    }

    /// A list's tokens share one bucket, whatever signed them; another list's bucket is its own.
    @Test func oneListLimitedLeavesTheOthersAlone() throws {
        let (server, path) = try server(rate: 1)
        defer { path.map(JWKSFixtures.remove) }
        let hs256 = liveToken("alice")
        let provider = JWKSFixtures.shared.live("alice-es256")
        #expect(try statuses(server, "/v1/lists/alice", hs256, count: 1) == [200])
        #expect(try statuses(server, "/v1/lists/alice", provider, count: 2) == [200, 429])
        #expect(try statuses(server, "/v1/lists/bob", liveToken("bob"), count: 3) == [200, 200, 429])
        // Requests without a token are the address's (here the in-process one), not alice's.
        #expect(try statuses(server, "/v1/openapi.json", count: 3) == [200, 200, 429])
    }

    @Test func healthAndAdminTokensAreExempt() throws {
        let (server, path) = try server(rate: 1)
        defer { path.map(JWKSFixtures.remove) }
        #expect(try statuses(server, "/v1/openapi.json", count: 3).last == 429)
        #expect(try statuses(server, "/healthz", count: 10).allSatisfy { $0 == 200 })
        let admin = JWKSFixtures.shared.live("ops-admin")
        #expect(try statuses(server, "/v1/lists/alice/rows", admin, count: 10).allSatisfy { $0 == 200 })
        #expect(try statuses(server, "/metrics", liveToken("ops", .admin), count: 5).allSatisfy { $0 == 200 })
    }

    /// Bad tokens count against their address before each costs a signature check.
    @Test func badTokensAreLimitedByAddress() throws {
        let (server, path) = try server(rate: 1)
        defer { path.map(JWKSFixtures.remove) }
        let bad = JWKSFixtures.shared.live("alice-es256").dropLast(4) + "AAAA"
        #expect(try statuses(server, "/v1/lists/alice/rows", String(bad), count: 3) == [401, 401, 429])
        #expect(try statuses(server, "/v1/lists/alice/rows", liveToken("alice"), count: 1) == [200])
    }

    /// A long-poll and a stream reconnecting are requests like any other.
    @Test func longPollsAndStreamsCount() throws {
        let (server, path) = try server(rate: 1)
        defer { path.map(JWKSFixtures.remove) }
        let token = liveToken("alice")
        #expect(try statuses(server, "/v1/lists/alice/transitions?since=0&wait=0", token, count: 2) == [200, 200])
        let stream = try server.request(
            "GET", "/v1/lists/alice/events?access_token=\(token)", headers: [("Accept", "text/event-stream")])
        #expect(stream.status == 429)
    }

    @Test func withoutAccessControlEveryClientIsItsAddress() throws {
        let (server, _) = try server(rate: 1, auth: false)
        #expect(try statuses(server, "/v1/lists/alice", count: 2) == [200, 200])
        #expect(try statuses(server, "/v1/lists/bob", count: 1) == [429])
        #expect(try statuses(server, "/healthz", count: 3) == [200, 200, 200])
    }

    @Test func zeroTurnsItOff() throws {
        let (server, _) = try server(rate: 0, auth: false)
        #expect(try statuses(server, "/v1/lists/alice", count: 50).allSatisfy { $0 == 200 })
    }
}
