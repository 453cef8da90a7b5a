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
            let body = body(of: index)
            endpoints.append(Endpoint(.GET, "/") { exchange throws(APIError) in serve(index, body, exchange) })
        }
        for file in EmbeddedWeb.files {
            let body = body(of: file)
            endpoints.append(
                Endpoint(.GET, "/" + file.path) { exchange throws(APIError) in serve(file, body, exchange) })
        }
        return endpoints
    }

    /// The paths `make` serves, which the OpenAPI document does not list one by one.
    static var paths: Set<String> { Set(["/"] + EmbeddedWeb.files.map { "/" + $0.path }) }

    /// An embedded file with the copies the build compressed (gzip 9, Brotli 11), made once.
    static func body(of file: EmbeddedFile) -> EncodedBody {
        EncodedBody(file.bytes, etag: file.etag, gzip: file.gzip?.bytes, br: file.br?.bytes)
    }

    /// Answers one embedded file in the client's coding: 304 when `If-None-Match` names its tag.
    static func serve(_ file: EmbeddedFile, _ body: EncodedBody, _ exchange: Exchange) {
        // `no-cache`: the paths are stable, not content-hashed, so a browser revalidates every
        // time, and the strong ETag makes that a bodiless 304 (RFC 9111 §5.2.2.4).
        exchange.send(
            body, contentType: file.contentType,
            headers: [
                ("Content-Security-Policy", "default-src 'self'"), ("X-Content-Type-Options", "nosniff"),
                ("Cache-Control", "no-cache"),
            ])
    }
}
