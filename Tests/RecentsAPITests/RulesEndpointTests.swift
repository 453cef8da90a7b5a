import Foundation
import RecentsCore
import RecentsTestSupport
import Testing

/// `GET /v1/rules`: the numbers of the server's own gesture rule, for clients that decide a
/// release themselves.
@Suite struct RulesEndpointTests {
    struct Reply: Decodable {
        var gesture: GestureRule
        var rowOptions: [RowOption]
        var rows: Rows

        struct Rows: Decodable {
            var defaultLimit: Int
            var maxLimit: Int
        }
    }

    @Test func theRulesAreTheServersOwnAndCacheable() throws {
        let server = try TestServer(.sqlite)
        let response = try server.request("GET", "/v1/rules")
        #expect(response.status == 200)
        let reply = try response.decode(Reply.self)
        #expect(reply.gesture == GestureRule.telegram)
        #expect(reply.rowOptions == RowOption.rowOptions)
        #expect(reply.rows.defaultLimit == ViewParameters.default.limit)
        #expect(reply.rows.maxLimit == ViewParameters.limitRange.upperBound)
        #expect(response.header("Cache-Control") == "public, max-age=300")
        let etag = try #require(response.header("ETag"))
        let again = try server.request("GET", "/v1/rules", headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
    }

    @Test func theRulesNeedNoToken() throws {
        let server = try TestServer.withAuth(.sqlite)
        #expect(try server.request("GET", "/v1/rules").status == 200)
    }

    /// The fixture both clients are tested against comes from the rule the server publishes.
    @Test func theFixtureNamesThePublishedRule() throws {
        let fixture = try Data(contentsOf: sharedFixture("gesture-decisions.json"))
        let object = try JSONSerialization.jsonObject(with: fixture) as? [String: Any]
        let rule = try JSONDecoder().decode(
            GestureRule.self, from: JSONSerialization.data(withJSONObject: object?["rule"] ?? [:]))
        let server = try TestServer(.sqlite)
        #expect(try server.request("GET", "/v1/rules").decode(Reply.self).gesture == rule)
    }
}
