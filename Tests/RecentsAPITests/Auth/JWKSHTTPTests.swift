import Foundation
import RecentsAPI
import RecentsAuth
import RecentsJSON
import RecentsTestSupport
import Testing

extension TestServer {
    /// A server accepting the fixtures' provider tokens from a key set file of `set` (and HS256
    /// tokens of `AuthFixtures.secret` when `secret`); the file's path comes back for rotations.
    static func withKeySet(
        _ backend: Backend, _ set: Data = JWKSFixtures.shared.initial, secret: Bool = false,
        _ configure: (inout AppConfiguration) -> Void = { _ in }
    ) throws -> (TestServer, String) {
        let path = try JWKSFixtures.writeKeySet(set)
        let server = try TestServer(backend) { configuration in
            configuration.authKeySetFile = path
            configuration.authIssuer = JWKSFixtures.shared.issuer
            configuration.authAudience = JWKSFixtures.shared.audience
            if secret { configuration.authSecret = AuthFixtures.secret }
            configure(&configuration)
        }
        return (server, path)
    }
}

/// Issue 25 over HTTP: a provider's tokens open their list, `GET /v1/me` tells a client its list,
/// a `sub` that is no list name says so, and a rotation takes effect without a restart.
@Suite struct JWKSHTTPTests {
    static let fixtures = JWKSFixtures.shared

    func me(_ server: TestServer, _ token: String?) throws -> TestResponse {
        try server.request("GET", "/v1/me", headers: token.map(bearer) ?? [])
    }

    @Test(arguments: ["alice-rs256", "alice-ps256", "alice-es256", "alice-eddsa"])
    func aProviderTokenOfEachAlgorithmOpensItsListAndItsIdentity(name: String) throws {
        let (server, path) = try TestServer.withKeySet(.sqlite)
        defer { JWKSFixtures.remove(path) }
        let token = Self.fixtures.live(name)
        let response = try me(server, token)
        #expect(response.status == 200)
        #expect(response.text == #"{"list":"alice","scope":["read","write"],"expiresAt":4102444800}"#)
        #expect(response.headers["cache-control"] == "no-store")
        #expect(response.headers["vary"] == "Authorization")
        #expect(try server.request("GET", "/v1/lists/alice/rows", headers: bearer(token)).status == 200)
        let posted = try server.request(
            "POST", "/v1/lists/alice/calls", body: callJSON("c-1", timestamp: 100), headers: bearer(token))
        #expect(posted.status == 201)
        #expect(try server.request("GET", "/v1/lists/bob/rows", headers: bearer(token)).status == 403)
    }

    @Test func meShowsTheScopeAsGrantedAndNeedsAToken() throws {
        let (server, path) = try TestServer.withKeySet(.sqlite, secret: true)
        defer { JWKSFixtures.remove(path) }
        #expect(try me(server, Self.fixtures.live("alice-read")).json["scope"] as? [String] == ["read"])
        let admin = try me(server, Self.fixtures.live("ops-admin"))
        #expect(admin.json["list"] as? String == "ops")
        #expect(admin.json["scope"] as? [String] == ["admin"])
        // An HS256 token answers the same way, beside the key set.
        let live = try me(server, liveToken("bob", [.write]))
        #expect(live.json["list"] as? String == "bob")
        #expect(live.json["scope"] as? [String] == ["write"])
        let none = try me(server, nil)
        #expect(none.status == 401)
        #expect(none.headers["www-authenticate"] == #"Bearer realm="recents""#)
    }

    @Test func meMatchesItsSchema() throws {
        let (server, path) = try TestServer.withKeySet(.sqlite)
        defer { JWKSFixtures.remove(path) }
        let schema = try SchemaConformance()
        for name in ["alice-rs256", "alice-read", "ops-admin"] {
            let body = try me(server, Self.fixtures.live(name)).body
            #expect(schema.problems(try JSONParser.parse(body), schema: "Me") == [], "\(name)")
        }
    }

    @Test func aSubThatIsNoListNameIs401SayingSo() throws {
        let (server, path) = try TestServer.withKeySet(.sqlite)
        defer { JWKSFixtures.remove(path) }
        let response = try me(server, Self.fixtures.live("bad-sub"))
        #expect(response.status == 401)
        #expect(response.headers["www-authenticate"] == #"Bearer realm="recents", error="invalid_token""#)
        #expect(
            response.json["detail"] as? String
                == "The bearer token's sub claim is not a list name: it must be 1 to 64 characters of A-Z a-z 0-9 . _ -."
        )
    }

    @Test func withoutAccessControlMeIs404() throws {
        let server = try TestServer(.sqlite)
        let response = try me(server, nil)
        #expect(response.status == 404)
        #expect(response.json["type"] as? String == "not-found")
    }

    /// The file rewritten (a rename, as deploy tools do) and read again: the removed key's token
    /// is refused at once although the server cached it, the new key's token is accepted.
    @Test(arguments: Backend.available)
    func aRotationTakesEffectWithoutARestart(backend: Backend) throws {
        let (server, path) = try TestServer.withKeySet(backend)
        defer { JWKSFixtures.remove(path) }
        let old = Self.fixtures.live("alice-es256")
        let new = Self.fixtures.live("alice-es256-next")
        #expect(try me(server, old).status == 200)
        #expect(try me(server, new).status == 401)
        try JWKSFixtures.replace(path, with: Self.fixtures.rotated)
        #expect(server.reloadKeySet() == .replaced(added: ["es256-next"], removed: ["es256"], changed: []))
        #expect(try me(server, old).status == 401)
        #expect(try me(server, new).status == 200)
        #expect(try me(server, Self.fixtures.live("alice-rs256")).status == 200)
        // A broken file keeps the rotated set.
        try JWKSFixtures.replace(path, with: Data("{".utf8))
        guard case .failed = server.reloadKeySet() else { return #expect(Bool(false)) }
        #expect(try me(server, new).status == 200)
    }

    @Test func aKeySetWithoutIssuerOrAudienceRefusesToStartNamingTheFlag() throws {
        let path = try JWKSFixtures.writeKeySet(Self.fixtures.initial)
        defer { JWKSFixtures.remove(path) }
        let error = #expect(throws: KeySetError.self) {
            try TestServer(.sqlite) { $0.authKeySetFile = path }
        }
        #expect(error?.description.hasPrefix("--auth-jwks needs --auth-issuer") == true)
        let audience = #expect(throws: KeySetError.self) {
            try TestServer(.sqlite) { configuration in
                configuration.authKeySetFile = path
                configuration.authIssuer = "https://issuer.example"
            }
        }
        #expect(audience?.description.hasPrefix("--auth-jwks needs --auth-audience") == true)
    }
}
