import RecentsTestSupport
import Testing

/// The same rules over HTTP, where the cache sits: the middleware's verifier is the server's.
@Suite struct TokenCacheHTTPTests {
    @Test(arguments: Backend.available)
    func aTokenForAServedFromTheCacheStillCannotTouchB(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let token = liveToken("alice")
        for _ in 0..<3 {
            #expect(try server.request("GET", "/v1/lists/alice/rows", headers: bearer(token)).status == 200)
        }
        #expect(try server.request("GET", "/v1/lists/bob/rows", headers: bearer(token)).status == 403)
        let write = try server.request(
            "POST", "/v1/lists/bob/calls", body: callJSON("c-1", timestamp: 100), headers: bearer(token))
        #expect(write.status == 403)
        #expect(try server.request("DELETE", "/v1/lists/bob", headers: bearer(token)).status == 403)
    }

    @Test(arguments: Backend.available)
    func aStreamOpenedWithACachedQueryTokenStillEndsWhenItExpires(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        // Refused from 2 s on (its `exp` plus the 60 s of skew); cached by the first request.
        let token = liveToken("alice", ttl: 10, age: 68)
        #expect(try server.request("GET", "/v1/lists/alice/rows", headers: bearer(token)).status == 200)
        let response = try server.request(
            "GET", "/v1/lists/alice/events?access_token=\(token)", headers: [("Accept", "text/event-stream")])
        #expect(response.status == 200)
        #expect(
            response.text.hasSuffix(
                "data: {\"type\":\"unauthorized\",\"detail\":\"The bearer token has expired.\"}\n\n"))
    }
}
