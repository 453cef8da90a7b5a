import Testing

@testable import RecentsAPI

/// The middleware finds `Authorization` fields by name, case-insensitively, without `values(for:)`.
@Suite struct AuthMiddlewareTests {
    @Test(arguments: ["Authorization", "authorization", "AUTHORIZATION", "aUtHoRiZaTiOn"])
    func theFieldNameMatchesInAnyCase(name: String) {
        #expect(AuthMiddleware.isAuthorization(name))
    }

    @Test(arguments: [
        "Authorisation", "Authorizatio", "Authorization ", " Authorization", "Proxy-Authorization", "", "!uthorization",
        "Authorizatioo",
    ])
    func otherNamesDoNot(name: String) {
        #expect(!AuthMiddleware.isAuthorization(name))
    }

    @Test func aLowerCaseFieldNameCarriesTheTokenOverHTTP() throws {
        let server = try TestServer.withAuth(.sqlite)
        let response = try server.request(
            "GET", "/v1/lists/alice/rows", headers: [("authorization", "Bearer \(liveToken("alice"))")])
        #expect(response.status == 200)
    }
}
