/// `GET /v1/openapi.json`: the OpenAPI 3.1 document of this API, embedded in the binary.
enum GetOpenAPI {
    static func make(_ service: Service) -> Endpoint {
        Endpoint(.GET, "/v1/openapi.json") { exchange throws(APIError) in
            exchange.json(200, EmbeddedOpenAPI.file.bytes)
        }
    }
}
