/// `GET /v1/openapi.json`: the OpenAPI 3.1 document of this API, embedded in the binary with the
/// copies the build compressed, so serving it costs no compression work.
enum GetOpenAPI {
    static func make(_ service: Service) -> Endpoint {
        let body = WebClientFiles.body(of: EmbeddedOpenAPI.file)
        return Endpoint(.GET, "/v1/openapi.json") { exchange throws(APIError) in
            exchange.send(
                body, contentType: "application/json; charset=utf-8", headers: [("Cache-Control", "no-cache")])
        }
    }
}
