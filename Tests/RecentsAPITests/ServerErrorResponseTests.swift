import HTTPServer
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// The answers the HTTP server makes itself reach clients as the API's problem+json.
@Suite struct ServerErrorResponseTests {
    @Test(arguments: Backend.available)
    func aHeadTooLargeIsProblemJSONWithItsSlugAndCORS(backend: Backend) throws {
        let server = try TestServer(backend, socket: true) { $0.corsOrigin = "https://app.example" }
        let response = try server.request(
            "GET", "/v1/lists/alice/rows", headers: [("X-Big", String(repeating: "a", count: 20_000))])
        #expect(response.status == 431)
        #expect(response.headers["content-type"] == "application/problem+json")
        #expect(response.headers["access-control-allow-origin"] == "https://app.example")
        #expect(
            response.text
                == #"{"type":"headers-too-large","title":"Request Header Fields Too Large","status":431,"detail":"request head too large"}"#
        )
    }

    @Test(arguments: [
        (400, "bad-request"), (408, "request-timeout"), (413, "payload-too-large"), (414, "uri-too-long"),
        (431, "headers-too-large"), (503, "overloaded"), (505, "http-version-not-supported"),
    ])
    func eachStatusKeepsTheSlugClientsKnow(_ status: Int, _ slug: String) {
        let response = APIError.httpLayerResponse(status: status, detail: "why", cors: CORSMiddleware(origin: nil))
        #expect(response.status == status)
        #expect(String(decoding: response.body, as: UTF8.self).hasPrefix(#"{"type":"\#(slug)","#))
        #expect(response.headers["Retry-After"] == (status == 503 ? "1" : nil))
        #expect(response.headers["Access-Control-Allow-Origin"] == nil)
    }
}
