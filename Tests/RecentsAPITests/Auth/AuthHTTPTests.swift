import Foundation
import RecentsAPI
import RecentsAuth
import RecentsTestSupport
import Testing

/// Issue 10's rules over HTTP: each rejection one test, and what stays open.
@Suite struct AuthHTTPTests {
    static let realm = #"Bearer realm="recents""#
    static let invalid = #"Bearer realm="recents", error="invalid_token""#
    static let scope = #"Bearer realm="recents", error="insufficient_scope""#

    func expectRefusal(
        _ response: TestResponse, _ status: Int, _ challenge: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.headers["www-authenticate"] == challenge, sourceLocation: sourceLocation)
        #expect(response.headers["content-type"] == "application/problem+json", sourceLocation: sourceLocation)
        let type = status == 401 ? "unauthorized" : "forbidden"
        #expect(response.json["type"] as? String == type, sourceLocation: sourceLocation)
    }

    func get(_ server: TestServer, _ path: String, token: String?) throws -> TestResponse {
        try server.request("GET", path, headers: token.map(bearer) ?? [])
    }

    @Test(arguments: Backend.available)
    func noTokenIs401WithTheBareChallenge(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        expectRefusal(try get(server, "/v1/lists/alice/rows", token: nil), 401, Self.realm)
        // Another scheme counts as no token (RFC 6750 §3).
        let basic = try server.request("GET", "/v1/lists/alice", headers: [("Authorization", "Basic YTpi")])
        expectRefusal(basic, 401, Self.realm)
    }

    @Test(arguments: Backend.available)
    func theOwnTokenReadsAndWrites(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let token = liveToken("alice")
        let posted = try server.request(
            "POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: 100), headers: bearer(token))
        #expect(posted.status == 201)
        let rows = try get(server, "/v1/lists/alice/rows", token: token)
        #expect(rows.status == 200)
        #expect(rows.headers["vary"]?.contains("Authorization") == true)
    }

    @Test(arguments: Backend.available)
    func aBadSignatureIs401InvalidToken(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        var token = liveToken("alice")
        let last = token.removeLast()
        token.append(last == "A" ? "B" : "A")
        expectRefusal(try get(server, "/v1/lists/alice/rows", token: token), 401, Self.invalid)
    }

    @Test(arguments: Backend.available)
    func algNoneIs401(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let header = Base64URLForTests.encode(#"{"alg":"none","typ":"JWT"}"#)
        let payload = Base64URLForTests.encode(#"{"sub":"alice","exp":\#(JWTVerifier.systemClock() + 600)}"#)
        expectRefusal(try get(server, "/v1/lists/alice/rows", token: "\(header).\(payload)."), 401, Self.invalid)
    }

    @Test(arguments: Backend.available)
    func anExpiredTokenIs401AndSaysSo(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let response = try get(server, "/v1/lists/alice/rows", token: liveToken("alice", ttl: 10, age: 100))
        expectRefusal(response, 401, Self.invalid)
        #expect((response.json["detail"] as? String)?.contains("expired") == true)
    }

    @Test(arguments: Backend.available)
    func trailingGarbageIs401(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        expectRefusal(try get(server, "/v1/lists/alice/rows", token: liveToken("alice") + "x"), 401, Self.invalid)
    }

    @Test(arguments: Backend.available)
    func aTokenForAIsRefusedOnAB(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        expectRefusal(try get(server, "/v1/lists/ab/rows", token: liveToken("a")), 403, Self.scope)
        expectRefusal(try get(server, "/v1/lists/a/rows", token: liveToken("ab")), 403, Self.scope)
    }

    @Test(arguments: Backend.available)
    func aSubOutsideTheListAlphabetOpensNothing(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let now = JWTVerifier.systemClock()
        // Percent-decoded, `a%2Fb` is `a/b`: a token claiming it must not open list `a` or any other.
        let token = liveSigned(payload: #"{"sub":"a/b","exp":\#(now + 600)}"#)
        for path in ["/v1/lists/a/rows", "/v1/lists/a%2Fb/rows", "/v1/lists/b/rows"] {
            let response = try get(server, path, token: token)
            #expect([401, 403].contains(response.status), "\(path)")
        }
    }

    @Test(arguments: Backend.available)
    func aReadTokenCannotWrite(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let response = try server.request(
            "POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: 100),
            headers: bearer(liveToken("alice", .read)))
        expectRefusal(response, 403, Self.scope)
        #expect(try get(server, "/v1/lists/alice/rows", token: liveToken("alice", .read)).status == 200)
    }

    @Test(arguments: Backend.available)
    func aWriteOnlyTokenCannotRead(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        expectRefusal(try get(server, "/v1/lists/alice", token: liveToken("alice", .write)), 403, Self.scope)
    }

    @Test(arguments: Backend.available)
    func forgettingAListNeedsWriteOnIt(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let read = try server.request("DELETE", "/v1/lists/alice", headers: bearer(liveToken("alice", .read)))
        expectRefusal(read, 403, Self.scope)
        let other = try server.request("DELETE", "/v1/lists/alice", headers: bearer(liveToken("bob")))
        expectRefusal(other, 403, Self.scope)
        #expect(try server.request("DELETE", "/v1/lists/alice", headers: bearer(liveToken("alice"))).status < 300)
    }

    @Test(arguments: Backend.available)
    func aRefusalIsTheSameWhetherTheListExistsOrNot(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let alice = liveToken("alice")
        _ = try server.request(
            "POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: 1), headers: bearer(alice))
        for token in [nil, liveToken("mallory")] {
            let existing = try get(server, "/v1/lists/alice/rows", token: token)
            let missing = try get(server, "/v1/lists/nobody/rows", token: token)
            #expect(existing.status == missing.status)
            #expect(existing.body == missing.body)
            #expect(existing.headers["www-authenticate"] == missing.headers["www-authenticate"])
        }
    }

    @Test(arguments: Backend.available)
    func metricsNeedsAnAdminToken(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        expectRefusal(try get(server, "/metrics", token: nil), 401, Self.realm)
        expectRefusal(try get(server, "/metrics", token: liveToken("alice")), 403, Self.scope)
        #expect(try get(server, "/metrics", token: liveToken("ops", .admin)).status == 200)
    }

    @Test(arguments: Backend.available)
    func anAdminTokenOpensEveryList(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        #expect(try get(server, "/v1/lists/alice/rows", token: liveToken("ops", .admin)).status == 200)
    }

    @Test(arguments: Backend.available)
    func healthAndTheDocumentStayOpen(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        #expect(try get(server, "/healthz", token: nil).status == 200)
        #expect(try get(server, "/v1/openapi.json", token: nil).status == 200)
    }

    @Test(arguments: Backend.available)
    func aHugeTokenIs431NotACrash(backend: Backend) throws {
        let server = try TestServer.withAuth(backend, socket: true)
        let huge = String(repeating: "a", count: 20_000)
        #expect(try get(server, "/v1/lists/alice/rows", token: huge).status == 431)
        #expect(try get(server, "/healthz", token: nil).status == 200)
    }

    @Test(arguments: Backend.available)
    func theQueryTokenIsIgnoredOutsideTheStream(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let response = try get(server, "/v1/lists/alice/rows?access_token=\(liveToken("alice"))", token: nil)
        expectRefusal(response, 401, Self.realm)
    }

    @Test(arguments: Backend.available)
    func twoTokensAreRefused(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let token = liveToken("alice")
        let response = try server.request(
            "GET", "/v1/lists/alice/rows", headers: bearer(token) + bearer(token))
        expectRefusal(response, 401, Self.invalid)
    }

    @Test(arguments: Backend.available)
    func preflightsAllowAuthorizationAndVaryKeepsOrigin(backend: Backend) throws {
        let server = try TestServer.withAuth(backend) { $0.corsOrigin = "https://app.example" }
        let preflight = try server.request("OPTIONS", "/v1/lists/alice/rows")
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-headers"]?.contains("Authorization") == true)
        let rows = try get(server, "/v1/lists/alice/rows", token: liveToken("alice"))
        let vary = rows.headers["vary"] ?? ""
        #expect(vary.contains("Authorization") && vary.contains("Origin"))
    }

    /// A read large enough to be coded varies on the coding and on the token, named once in one
    /// field; a write's answer does not vary on the token.
    @Test(arguments: Backend.available)
    func aCodedReadVariesOnTheCodingAndTheTokenInOneField(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let token = liveToken("alice")
        let batch = (0..<60).map {
            callJSON("c-\($0)", peer: "p\($0 % 7)", name: "Peer \($0 % 7)", timestamp: 1_764_460_800 + $0 * 600)
        }
        let posted = try server.request(
            "POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(batch.joined(separator: ","))]}"#,
            headers: bearer(token))
        #expect(posted.status == 201)
        #expect(posted.header("Vary")?.contains("Authorization") != true)
        for coding in ["identity", "gzip"] {
            let rows = try server.request(
                "GET", "/v1/lists/alice/rows?limit=50", headers: bearer(token) + [("Accept-Encoding", coding)])
            #expect(rows.status == 200)
            let vary = rows.headers.fields.filter { $0.name.lowercased() == "vary" }.map(\.value)
            #expect(vary == ["Accept-Encoding, Authorization"], "in \(coding)")
        }
    }

    @Test(arguments: Backend.available)
    func aParkedLongPollEndsWith401WhenItsTokenExpires(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        // Accepted for 2 s more (its `exp` plus the 60 s of skew), and past its `exp`: it waits
        // no longer.
        let token = liveToken("alice", ttl: 10, age: 68)
        let response = try get(server, "/v1/lists/alice/transitions?wait=30", token: token)
        expectRefusal(response, 401, Self.invalid)
        #expect((response.json["detail"] as? String)?.contains("expired") == true)
    }

    @Test(arguments: Backend.available)
    func theStreamTakesTheQueryTokenAndEndsWhenItExpires(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        // Its `exp` a second away: the stream must end then, with a last event that says why.
        let token = liveToken("alice", ttl: 1)
        let response = try server.request(
            "GET", "/v1/lists/alice/events?access_token=\(token)", headers: [("Accept", "text/event-stream")])
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/event-stream")
        let text = response.text
        #expect(text.hasPrefix("retry: ") && text.contains("\nid: "))
        #expect(text.contains("event: transition\n"))
        #expect(
            text.hasSuffix(
                "event: unauthorized\ndata: {\"type\":\"unauthorized\",\"detail\":\"The bearer token has expired.\"}\n\n"
            ))
    }

    @Test(arguments: Backend.available)
    func theStreamRefusesAQueryTokenForAnotherList(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let response = try server.request(
            "GET", "/v1/lists/alice/events?access_token=\(liveToken("bob"))", headers: [("Accept", "text/event-stream")]
        )
        expectRefusal(response, 403, Self.scope)
    }

    @Test(arguments: Backend.available)
    func withAuthOffNothingIsChecked(backend: Backend) throws {
        let server = try TestServer(backend) { $0.authDisabled = true }
        #expect(try get(server, "/v1/lists/alice/rows", token: nil).status == 200)
        #expect(try get(server, "/v1/lists/alice/rows", token: nil).headers["vary"] == nil)
    }
}
