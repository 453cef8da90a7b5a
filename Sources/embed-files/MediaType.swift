/// The media type a file is served with, from its extension.
enum MediaType {
    /// Known extensions; text types say their charset, since every text file here is UTF-8.
    static let byExtension: [String: String] = [
        "css": "text/css; charset=utf-8",
        "html": "text/html; charset=utf-8",
        "ico": "image/x-icon",
        // RFC 9239: JavaScript is text/javascript.
        "js": "text/javascript; charset=utf-8",
        "json": "application/json; charset=utf-8",
        "map": "application/json; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "png": "image/png",
        "sql": "application/sql",
        "svg": "image/svg+xml",
        "txt": "text/plain; charset=utf-8",
        "webmanifest": "application/manifest+json",
        "woff2": "font/woff2",
    ]

    /// The media type of `path`; an unknown extension fails the build.
    static func of(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), let type = byExtension[name[name.index(after: dot)...].lowercased()]
        else { fail("\(path): no media type is known for its extension (add one to MediaType.byExtension)") }
        return type
    }
}
