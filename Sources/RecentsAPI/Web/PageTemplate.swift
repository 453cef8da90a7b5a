import RecentsCrypto

/// The page at `/`, prepared once at start-up: index.html naming the content-hashed files, its
/// stylesheet inside it (a `<style>` allowed by its hash in the Content-Security-Policy, so a
/// first visit paints after one round trip for the page instead of two), and the two places a
/// list's first view goes: its data before `</head>`, its rows in `<ul id="rows">`.
struct PageTemplate: Sendable {
    /// The page before the first view's data.
    private let head: String
    /// From `</head>` to the rows.
    private let body: String
    /// After the rows.
    private let tail: String
    /// `default-src 'self'`, plus the inline stylesheet's hash.
    let contentSecurityPolicy: String

    private static let emptyList = "<ul id=\"rows\" class=\"rows\" aria-label=\"Calls\"></ul>"

    /// The template of `page`, with the stylesheet of `files` it links inlined.
    init(page: String, files: [EmbeddedFile]) {
        var page = page
        var policy = "default-src 'self'"
        if let link = Self.stylesheetLink(in: page), let css = files.first(where: { $0.path == link.href }) {
            let text = String(decoding: css.bytes, as: UTF8.self)
            page.replaceSubrange(link.range, with: "<style>" + text + "</style>")
            policy += "; style-src 'self' 'sha256-\(Self.base64(SHA256.digest(css.bytes)))'"
        }
        contentSecurityPolicy = policy
        let headEnd = page.firstRange(of: "</head>")?.lowerBound ?? page.endIndex
        head = String(page[..<headEnd])
        let rest = String(page[headEnd...])
        if let list = rest.firstRange(of: Self.emptyList) {
            body = String(rest[..<list.lowerBound])
            tail = String(rest[list.upperBound...])
        } else {
            body = rest
            tail = ""
        }
    }

    /// The page as it is, with no list in it (auth on, or a list name that is not one).
    var plain: [UInt8] { Array((head + body + Self.emptyList + tail).utf8) }

    /// The page with a list's first view: `initial` (JSON) in `#recents-initial`, `list` the rows.
    func render(initial: String, list: String) -> [UInt8] {
        Array(
            (head + "<script type=\"application/json\" id=\"recents-initial\">" + initial + "</script>\n" + body
                + list + tail).utf8)
    }

    /// `<link rel="stylesheet" href="…">` and where it stands.
    private static func stylesheetLink(in page: String) -> (range: Range<String.Index>, href: String)? {
        guard let start = page.firstRange(of: "<link rel=\"stylesheet\" href=\""),
            let hrefEnd = page[start.upperBound...].firstIndex(of: "\""),
            let close = page[hrefEnd...].firstIndex(of: ">")
        else { return nil }
        return (start.lowerBound..<page.index(after: close), String(page[start.upperBound..<hrefEnd]))
    }

    /// Standard base64 with padding (what CSP hash sources are written in).
    static func base64(_ bytes: [UInt8]) -> String {
        var text = String(Base64URL.encode(bytes).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while text.utf8.count % 4 != 0 { text += "=" }
        return text
    }
}
