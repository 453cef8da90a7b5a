import RecentsCrypto

/// The page at `/`, prepared once at start-up: index.html naming the content-hashed files, its
/// stylesheet inside it (a `<style>` allowed by its hash in the Content-Security-Policy, so a
/// first visit paints after one round trip for the page instead of two), its one classic script
/// inside it too (`<script src>` without a type: locale.js, which puts the page into the reader's
/// language before the first paint; allowed by its hash), and the two places a list's first view
/// goes: its data before `</head>`, its rows in `<ul id="rows">`.
struct PageTemplate: Sendable {
    /// The page before the first view's data.
    private let head: String
    /// From `</head>` to the rows.
    private let body: String
    /// After the rows.
    private let tail: String
    /// `default-src 'self'`, plus the inline stylesheet's and script's hashes.
    let contentSecurityPolicy: String

    private static let emptyList = "<ul id=\"rows\" class=\"rows\" aria-label=\"Calls\"></ul>"

    /// The template of `page`, with the stylesheet and the classic script of `files` it loads inlined.
    init(page: String, files: [EmbeddedFile]) {
        var page = page
        var policy = "default-src 'self'"
        for kind in Inlined.allCases {
            guard let reference = kind.reference(in: page), let file = files.first(where: { $0.path == reference.href })
            else { continue }
            let text = String(decoding: file.bytes, as: UTF8.self)
            // Text that would end its element early stays a reference (allowed by `'self'`).
            guard !text.lowercased().contains("</" + kind.element) else { continue }
            page.replaceSubrange(reference.range, with: "<\(kind.element)>" + text + "</\(kind.element)>")
            policy += "; \(kind.directive) 'self' 'sha256-\(Self.base64(SHA256.digest(file.bytes)))'"
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

    /// What the page carries inside it rather than by reference.
    enum Inlined: CaseIterable {
        case stylesheet, script

        var element: String { self == .stylesheet ? "style" : "script" }
        var directive: String { self == .stylesheet ? "style-src" : "script-src" }

        /// `<link rel="stylesheet" href="…">`, or `<script src="…"></script>` (a classic script: a
        /// module's tag starts `<script type=`), and where it stands.
        func reference(in page: String) -> (range: Range<String.Index>, href: String)? {
            let (opening, closing) =
                self == .stylesheet ? ("<link rel=\"stylesheet\" href=\"", ">") : ("<script src=\"", "></script>")
            guard let start = page.firstRange(of: opening),
                let hrefEnd = page[start.upperBound...].firstIndex(of: "\""),
                let close = page[hrefEnd...].firstRange(of: closing)
            else { return nil }
            return (start.lowerBound..<close.upperBound, String(page[start.upperBound..<hrefEnd]))
        }
    }

    /// Standard base64 with padding (what CSP hash sources are written in).
    static func base64(_ bytes: [UInt8]) -> String {
        var text = String(Base64URL.encode(bytes).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while text.utf8.count % 4 != 0 { text += "=" }
        return text
    }
}
