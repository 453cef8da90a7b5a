import Foundation
import RecentsCrypto
import RecentsTestSupport
import Testing

@testable import RecentsAPI

@Suite struct WebClientTests {
    @Test(arguments: Backend.available)
    func theRootServesThePageWithItsHeaders(backend: Backend) throws {
        let server = try TestServer(backend)
        let page = try server.request("GET", "/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["cache-control"] == "no-cache")
        #expect(page.headers["etag"] == nil, "the page carries the list's rows: no validator")
        // The modules it loads go by their hashed names.
        #expect(page.text.contains("<script type=\"module\" src=\"app."))
        #expect(!page.text.contains("src=\"app.js\""))
    }

    /// The stylesheet and the classic script (locale.js, the first-paint step) are inside the page,
    /// and the policy allows exactly them; the modules stay references.
    @Test(arguments: ["/", "/?list=alice"])
    func theInlineStylesheetAndScriptAreAllowedByTheirHashes(path: String) throws {
        let server = try TestServer(.sqlite)
        let page = try server.request("GET", path)
        let text = page.text
        func hash(between open: String, and close: String) throws -> String {
            let start = try #require(text.firstRange(of: open))
            let end = try #require(text[start.upperBound...].firstRange(of: close))
            return PageTemplate.base64(SHA256.digest(Array(text[start.upperBound..<end.lowerBound].utf8)))
        }
        let css = try hash(between: "<style>", and: "</style>")
        let script = try hash(between: "<script>", and: "</script>")
        #expect(
            page.headers["content-security-policy"]
                == "default-src 'self'; style-src 'self' 'sha256-\(css)'; script-src 'self' 'sha256-\(script)'")
        #expect(!text.contains("<link rel=\"stylesheet\""))
        #expect(!text.contains("<script src="))
        #expect(text.contains("globalThis.recentsLocale"), "the inline script is locale.js")
        #expect(text.contains("<script type=\"module\" src=\"app."))
    }

    /// A file whose text would end its element early is not inlined: it stays a reference.
    @Test func textThatWouldEndItsElementStaysAReference() {
        let page = "<head><link rel=\"stylesheet\" href=\"s.css\"></head><body><script src=\"l.js\"></script></body>"
        let files = [("s.css", "a{}"), ("l.js", "x = '</SCRIPT>';")].map { path, text in
            EmbeddedFile(path: path, bytes: Array(text.utf8), contentType: "", etag: "", gzip: nil, br: nil)
        }
        let template = PageTemplate(page: page, files: files)
        let text = String(decoding: template.plain, as: UTF8.self)
        #expect(text.contains("<style>a{}</style>"))
        #expect(text.contains("<script src=\"l.js\"></script>"))
        #expect(!template.contentSecurityPolicy.contains("script-src"))
    }

    @Test(arguments: Backend.available)
    func aMatchingIfNoneMatchIsA304WithNoBody(backend: Backend) throws {
        let server = try TestServer(backend)
        let etag = try #require(try server.request("GET", "/recents-client.js").headers["etag"])
        let again = try server.request("GET", "/recents-client.js", headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.headers["etag"] == etag)
        let other = try server.request("GET", "/recents-client.js", headers: [("If-None-Match", "\"other\"")])
        #expect(other.status == 200)
    }

    @Test(
        arguments: Backend.available,
        [
            ("/recents-client.js", "text/javascript; charset=utf-8"), ("/style.css", "text/css; charset=utf-8"),
            ("/icons/phone.svg", "image/svg+xml"),
        ])
    func filesHaveTheirMediaTypes(backend: Backend, example: (String, String)) throws {
        let (path, type) = example
        let server = try TestServer(backend)
        let response = try server.request("GET", path)
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == type)
        #expect(response.headers["x-content-type-options"] == "nosniff")
    }

    @Test func theEmbeddedFilesEqualTheFilesInWeb() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Web")
        for file in EmbeddedWeb.files {
            let disk = try Data(contentsOf: root.appendingPathComponent(file.path))
            #expect(Array(disk) == file.bytes, "\(file.path) is stale: touch Package.swift and rebuild")
        }
        #expect(EmbeddedWeb.file(at: "recents-client.js") != nil)
    }

    @Test(arguments: Backend.available)
    func unknownFilesAndOtherMethodsAreRefused(backend: Backend) throws {
        let server = try TestServer(backend)
        #expect(try server.request("GET", "/nope.js").status == 404)
        #expect(try server.request("GET", "/../Package.swift").status == 404)
        #expect(try server.request("POST", "/").status == 405)
        let head = try server.request("HEAD", "/")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
    }
}
