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

    /// The stylesheet is inside the page, and the policy allows exactly it.
    @Test func theInlineStylesheetIsAllowedByItsHash() throws {
        let server = try TestServer(.sqlite)
        let page = try server.request("GET", "/")
        let text = page.text
        let start = try #require(text.firstRange(of: "<style>"))
        let end = try #require(text.firstRange(of: "</style>"))
        let css = Array(text[start.upperBound..<end.lowerBound].utf8)
        let hash = PageTemplate.base64(SHA256.digest(css))
        #expect(page.headers["content-security-policy"] == "default-src 'self'; style-src 'self' 'sha256-\(hash)'")
        #expect(!text.contains("<link rel=\"stylesheet\""))
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
