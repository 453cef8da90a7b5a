import HTTPServer

/// The web client's files (the folder `Web/`, embedded at build time), each at its own path
/// (`/recents-client.js`, `/icons/phone.svg`) and at its content-hashed one
/// (`/recents-client.<hash>.js`), which the page at `/` (`GetPage`) names.
///
/// One literal route per file, so no pattern overlaps an API path and an unknown file is the
/// router's ordinary 404. These routes stay open when access control is on: the page carries no
/// list data, and it needs to load before it can present a token.
enum WebClientFiles {
    static func make(_ service: Service) -> [Endpoint] {
        var endpoints: [Endpoint] = GetPage.make(service).map { [$0] } ?? []
        for file in EmbeddedWeb.files {
            let body = body(of: file)
            endpoints.append(
                Endpoint(.GET, "/" + file.path) { exchange throws(APIError) in
                    serve(file, body, cache: "no-cache", exchange)
                })
        }
        for file in EmbeddedWeb.hashed {
            let body = body(of: file)
            endpoints.append(
                Endpoint(.GET, "/" + file.path) { exchange throws(APIError) in
                    serve(file, body, cache: "public, max-age=31536000, immutable", exchange)
                })
        }
        return endpoints
    }

    /// The paths `make` serves, which the OpenAPI document does not list one by one.
    static var paths: Set<String> {
        Set(["/"] + (EmbeddedWeb.files + EmbeddedWeb.hashed).map { "/" + $0.path })
    }

    /// An embedded file with the copies the build compressed (gzip 9, Brotli 11), made once.
    static func body(of file: EmbeddedFile) -> EncodedBody {
        EncodedBody(file.bytes, etag: file.etag, gzip: file.gzip?.bytes, br: file.br?.bytes)
    }

    /// Answers one embedded file in the client's coding: 304 when `If-None-Match` names its tag.
    ///
    /// A hashed name (`app.<hash>.js`) never changes its bytes, so it is cached for good
    /// (`immutable`: a warm page costs one round trip, for the page); a stable name is
    /// `no-cache`, revalidated every time, the strong ETag making that a bodiless 304
    /// (RFC 9111 §5.2.2.4).
    static func serve(_ file: EmbeddedFile, _ body: EncodedBody, cache: String, _ exchange: Exchange) {
        exchange.send(
            body, contentType: file.contentType,
            headers: [
                ("Content-Security-Policy", "default-src 'self'"), ("X-Content-Type-Options", "nosniff"),
                ("Cache-Control", cache),
            ])
    }
}
