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

    /// A connection keeps the token its last request proved: every request is still judged by the
    /// token it carries itself, whatever the one before carried.
    @Test(arguments: Backend.available)
    func aConnectionThatChangesTokensIsJudgedByEachRequestsOwn(backend: Backend) throws {
        let server = try TestServer.withAuth(backend, socket: true)
        let connection = try server.client()
        let alice = liveToken("alice")
        let bob = liveToken("bob")
        let expired = liveToken("alice", ttl: 10, age: 100)
        let steps: [(list: String, headers: [(String, String)], status: Int, why: String)] = [
            ("alice", bearer(alice), 200, "alice's token"), ("alice", bearer(alice), 200, "alice's token again"),
            ("alice", bearer(bob), 403, "bob's token"), ("alice", [], 401, "no token"),
            ("alice", bearer(expired), 401, "an expired token"),
            ("alice", bearer(alice) + bearer(alice), 401, "the token twice"),
            ("alice", [("authorization", "bearer  \(alice)")], 200, "the token, spelled otherwise"),
            ("alice", [("Authorization", "Basic YWxpY2U6eA==")], 401, "another scheme"),
            ("bob", bearer(bob), 200, "bob's token"), ("bob", bearer(alice), 403, "alice's token"),
            ("alice", bearer(alice), 200, "alice's token at last"),
        ]
        for step in steps {
            let answer = try connection.request("GET", "/v1/lists/\(step.list)/rows", headers: step.headers)
            #expect(answer.status == step.status, "GET \(step.list) with \(step.why)")
        }
        // The stream takes a query token too; with the header as well, that is two tokens.
        let both = try connection.request(
            "GET", "/v1/lists/alice/events?access_token=\(alice)",
            headers: bearer(alice) + [("Accept", "text/event-stream")])
        #expect(both.status == 401)
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
