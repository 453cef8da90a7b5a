import HTTPServer

/// The web client's files (the folder `Web/`, embedded at build time): `/` is `index.html`, and
/// every file is also served at its own path (`/recents-client.js`, `/icons/phone.svg`).
///
/// One literal route per file, so no pattern overlaps an API path and an unknown file is the
/// router's ordinary 404. These routes stay open when access control is on: the page carries no
/// list data, and it needs to load before it can present a token.
enum WebClientFiles {
    static func make(_ service: Service) -> [Endpoint] {
        var endpoints: [Endpoint] = []
        if let index = EmbeddedWeb.file(at: "index.html") {
            endpoints.append(Endpoint(.GET, "/") { exchange throws(APIError) in serve(index, exchange) })
        }
        for file in EmbeddedWeb.files {
            endpoints.append(Endpoint(.GET, "/" + file.path) { exchange throws(APIError) in serve(file, exchange) })
        }
        return endpoints
    }

    /// The paths `make` serves, which the OpenAPI document does not list one by one.
    static var paths: Set<String> { Set(["/"] + EmbeddedWeb.files.map { "/" + $0.path }) }

    /// Answers one embedded file: 304 when `If-None-Match` names its ETag, else the bytes.
    static func serve(_ file: EmbeddedFile, _ exchange: Exchange) {
        // `no-cache`: the paths are stable, not content-hashed, so a browser revalidates every
        // time, and the strong ETag makes that a bodiless 304 (RFC 9111 §5.2.2.4).
        var response: HTTPResponse
        if let condition = exchange.request.headers["If-None-Match"], EntityTag.matches(condition, etag: file.etag) {
            response = HTTPResponse(status: 304, body: [])
        } else {
            response = HTTPResponse(status: 200, body: file.bytes)
            response.headers.add("Content-Type", file.contentType)
            response.headers.add("Content-Security-Policy", "default-src 'self'")
            response.headers.add("X-Content-Type-Options", "nosniff")
        }
        response.headers.add("ETag", file.etag)
        response.headers.add("Cache-Control", "no-cache")
        exchange.send(response)
    }
}
