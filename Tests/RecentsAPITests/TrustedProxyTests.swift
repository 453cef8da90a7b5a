import HTTPServer
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// Rate limits behind a proxy (issue 45): from a trusted proxy each forwarded client has a bucket
/// of its own; from anyone else, what a client claims in `X-Forwarded-For` or `Forwarded` changes
/// nothing. Over a real socket (the peer address is the socket's), with the limiter's clock stopped.
@Suite struct TrustedProxyTests {
    let clock = ManualClock()

    func server(trusting proxies: String) throws -> TestServer {
        try TestServer(.sqlite, socket: true) { configuration in
            configuration.rateLimit.requestsPerSecond = 1
            configuration.rateLimit.clock = clock.read
            configuration.http.trustedProxies = (try? TrustedProxies.parse(proxies).get()) ?? TrustedProxies()
        }
    }

    func statuses(_ server: TestServer, _ fields: [(String, String)], count: Int) throws -> [Int] {
        try (0..<count).map { _ in try server.request("GET", "/v1/lists/alice", headers: fields).status }
    }

    @Test func twoClientsBehindATrustedProxyHaveABucketEach() throws {
        let server = try server(trusting: "127.0.0.1")
        let first = [("X-Forwarded-For", "198.51.100.1")]
        let second = [("Forwarded", "for=198.51.100.2;proto=https")]
        #expect(try statuses(server, first, count: 3) == [200, 200, 429])
        #expect(try statuses(server, second, count: 3) == [200, 200, 429])
        // A client that prepends an address still draws from its own bucket (the proxy's append wins).
        #expect(try statuses(server, [("X-Forwarded-For", "203.0.113.50, 198.51.100.1")], count: 1) == [429])
        // The proxy's own requests (no header) are the proxy's.
        #expect(try statuses(server, [], count: 3) == [200, 200, 429])
        // IPv6 clients count by their /64.
        #expect(try statuses(server, [("X-Forwarded-For", "2001:db8:1:2::1")], count: 2) == [200, 200])
        #expect(try statuses(server, [("X-Forwarded-For", "2001:db8:1:2::99")], count: 1) == [429])
        #expect(try statuses(server, [("X-Forwarded-For", "2001:db8:1:3::1")], count: 1) == [200])
    }

    @Test func withoutTheFlagAClientsOwnHeaderChangesNothing() throws {
        let server = try server(trusting: "")
        #expect(try statuses(server, [("X-Forwarded-For", "198.51.100.1")], count: 2) == [200, 200])
        #expect(try statuses(server, [("X-Forwarded-For", "198.51.100.2")], count: 1) == [429])
        #expect(try statuses(server, [("Forwarded", "for=198.51.100.3")], count: 1) == [429])
    }

    @Test func fromAnUntrustedPeerTheHeadersAreIgnored() throws {
        let server = try server(trusting: "10.0.0.0/8, 2001:db8::/32")
        #expect(try statuses(server, [("X-Forwarded-For", "198.51.100.1")], count: 2) == [200, 200])
        #expect(try statuses(server, [("X-Forwarded-For", "198.51.100.2")], count: 1) == [429])
    }

    /// A request with a body is limited on its head (issue 38) by the same key: the forwarded client's.
    @Test func aHeadIsLimitedByTheForwardedClientToo() throws {
        let server = try server(trusting: "127.0.0.1")
        let first = [("X-Forwarded-For", "198.51.100.1")]
        #expect(try statuses(server, first, count: 2) == [200, 200])
        let body = callJSON("c-1", timestamp: 1_764_460_800)
        #expect(try server.request("POST", "/v1/lists/alice/calls", body: body, headers: first).status == 429)
        let second = [("X-Forwarded-For", "198.51.100.2")]
        #expect(try server.request("POST", "/v1/lists/alice/calls", body: body, headers: second).status == 201)
    }
}
