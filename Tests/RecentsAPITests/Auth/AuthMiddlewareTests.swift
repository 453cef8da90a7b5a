import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// The middleware finds `Authorization` fields by name, case-insensitively (the field lookup
/// itself: HTTPServerTests' ReceivedFieldsTests).
@Suite struct AuthMiddlewareTests {
    @Test(arguments: Backend.available)
    func aLowerCaseFieldNameCarriesTheTokenOverHTTP(backend: Backend) throws {
        let server = try TestServer.withAuth(backend)
        let response = try server.request(
            "GET", "/v1/lists/alice/rows", headers: [("authorization", "Bearer \(liveToken("alice"))")])
        #expect(response.status == 200)
    }
}
