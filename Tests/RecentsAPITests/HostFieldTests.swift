import RecentsTestSupport
import Testing

/// RFC 9112 §3.2 and the 505 slug, end to end: the HTTP layer's refusals reach clients as the
/// API's problem+json.
@Suite struct HostFieldTests {
    private func answer(_ server: TestServer, _ raw: String) throws -> TestResponse {
        let connection = try server.client()
        try connection.sendRaw(Array(raw.utf8))
        return try connection.readResponse()
    }

    @Test(
        arguments: Backend.available,
        [
            "GET /v1/lists/alice HTTP/1.1\r\n\r\n",
            "GET /v1/lists/alice HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            "GET /v1/lists/alice HTTP/1.1\r\nHost: a, b\r\n\r\n",
        ])
    func aMissingOrRepeatedHostIs400(backend: Backend, raw: String) throws {
        let server = try TestServer(backend, socket: true)
        let response = try answer(server, raw)
        #expect(response.status == 400)
        #expect(response.headers["content-type"] == "application/problem+json")
        #expect(response.json["type"] as? String == "bad-request")
        #expect((response.json["detail"] as? String)?.contains("Host") == true)
    }

    @Test(arguments: Backend.available)
    func http10WithoutHostIsServed(backend: Backend) throws {
        let server = try TestServer(backend, socket: true)
        #expect(try answer(server, "GET /healthz HTTP/1.0\r\n\r\n").status == 200)
    }

    @Test(arguments: Backend.available)
    func anAbsoluteFormTargetIsServedWhateverTheHostField(backend: Backend) throws {
        let server = try TestServer(backend, socket: true)
        let response = try answer(server, "GET http://recents.example/healthz HTTP/1.1\r\nHost: other.example\r\n\r\n")
        #expect(response.status == 200)
    }

    @Test(arguments: Backend.available)
    func anUnsupportedVersionIs505WithItsOwnSlug(backend: Backend) throws {
        let server = try TestServer(backend, socket: true)
        let response = try answer(server, "GET /healthz HTTP/2.0\r\nHost: a\r\n\r\n")
        #expect(response.status == 505)
        #expect(response.json["type"] as? String == "http-version-not-supported")
        #expect(int(response.json["status"]) == 505)
    }
}
