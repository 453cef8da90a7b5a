import Foundation
import RecentsAuth
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// What a token allows, to the second (issue 38, item 5): a stream and a parked long-poll end at
/// the token's `exp`, not 60 s later; a query token given twice is refused; one scope rule.
@Suite struct TokenRulesTests {
    @Test(arguments: Backend.available)
    func aParkedLongPollEndsAtItsTokensExpNotAMinuteLater(backend: Backend) throws {
        let clock = ManualClock()
        let server = try TestServer.withAuth(backend) { $0.clock = .manual(clock) }
        // `exp` a second away; with the skew the token is accepted for a minute more, past the wait.
        let token = liveToken("alice", ttl: 1)
        let exchange = try server.begin("GET", "/v1/lists/alice/transitions?since=0&wait=30", headers: bearer(token))
        // Two seconds on: past `exp`, far inside the 30 s wait.
        clock.advance(by: .seconds(2))
        let response = try server.finish(exchange)
        #expect(response.status == 401)
        #expect(response.json["detail"] as? String == "The bearer token has expired.")
    }

    @Test(arguments: Backend.available)
    func aStreamEndsAtItsTokensExpNotAMinuteLater(backend: Backend) throws {
        let clock = ManualClock()
        let server = try TestServer.withAuth(backend) { $0.clock = .manual(clock) }
        let exchange = try server.begin(
            "GET", "/v1/lists/alice/events",
            headers: [("Accept", "text/event-stream")] + bearer(liveToken("alice", ttl: 1)))
        // The first event is out, so the stream's end is on the timer; then two seconds on, far
        // inside its 300 s of life (the token's minute of skew would outlast it too).
        exchange.body(within: .seconds(60)) { !$0.isEmpty }
        try server.waitUntilStreamsSettle()
        clock.advance(by: .seconds(2))
        let body = exchange.body(within: .seconds(60)) { _ in false }
        #expect(exchange.isComplete)
        #expect(
            String(decoding: body, as: UTF8.self).hasSuffix(
                "event: unauthorized\ndata: {\"type\":\"unauthorized\",\"detail\":\"The bearer token has expired.\"}\n\n"
            ))
    }

    @Test func theVerifierCountsTheTimeLeftToTheMillisecond() {
        let verifier = JWTVerifier(secret: AuthFixtures.secret, clock: { 1_000 })
        #expect(verifier.timeUntil(1_003) == .seconds(3))
        #expect(verifier.timeUntil(999) == .seconds(-1))
        let wall = JWTVerifier(secret: AuthFixtures.secret)
        let left = wall.timeUntil(wall.now + 10)
        #expect(left > .seconds(9) && left <= .seconds(10))
    }

    @Test(arguments: Backend.available)
    func aQueryTokenGivenTwiceIsRefusedNotTakenFirst(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let token = liveToken("alice")
        let response = try server.request(
            "GET", "/v1/lists/alice/events?access_token=\(token)&access_token=\(token)",
            headers: [("Accept", "text/event-stream")])
        #expect(response.status == 401)
        #expect(response.headers["www-authenticate"] == #"Bearer realm="recents", error="invalid_token""#)
        // Elsewhere the parameter means nothing, once or twice.
        #expect(
            try server.request(
                "GET", "/v1/lists/alice?access_token=x&access_token=y", headers: bearer(token)
            ).status == 200)
    }

    /// A token naming none of read, write, admin reads and writes its own list, HS256 or not.
    @Test(arguments: Backend.available)
    func anHS256TokenWithOtherServicesScopesReadsAndWritesItsList(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let payload = #"{"sub":"alice","exp":\#(JWTVerifier.systemClock() + 600),"scope":"openid profile"}"#
        let token = liveSigned(payload: payload)
        #expect(try server.request("GET", "/v1/lists/alice", headers: bearer(token)).status == 200)
        #expect(
            try server.request(
                "POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: 1_764_460_800), headers: bearer(token)
            ).status == 201)
        #expect(try server.request("GET", "/v1/lists/bob", headers: bearer(token)).status == 403)
        #expect(
            try server.request("GET", "/v1/me", headers: bearer(token)).json["scope"] as? [String] == ["read", "write"])
    }
}
