import Foundation
import RecentsCore
import RecentsTestSupport
import Testing

@testable import RecentsAPI

/// Issue 22's first rows in the first response: `/?list=NAME` carries the list's first view (its
/// data and its rows in the page's markup) when it can be read without a token, and every file
/// the page loads goes by a content-hashed name cached for good.
@Suite struct FirstViewTests {
    private func seeded(_ backend: Backend, auth: Bool = false) throws -> TestServer {
        let server = auth ? try TestServer.withAuth(backend) : try TestServer(backend)
        let calls = (0..<8).map {
            callJSON(
                "c-\($0)", peer: "p\($0 % 3)", name: $0 == 0 ? "<Bob & Co>" : "Peer \($0 % 3)",
                timestamp: 1_764_460_800 + $0 * 3600)
        }
        let headers = auth ? bearer(liveToken("alice")) : []
        let posted = try server.request(
            "POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#, headers: headers)
        #expect(posted.status == 201)
        return server
    }

    /// The `#recents-initial` JSON and the `<ul id="rows">` of a page.
    private func firstView(_ page: String) throws -> (initial: [String: Any], list: String) {
        let open = "<script type=\"application/json\" id=\"recents-initial\">"
        let start = try #require(page.firstRange(of: open))
        let end = try #require(page[start.upperBound...].firstRange(of: "</script>"))
        let json = String(page[start.upperBound..<end.lowerBound])
        #expect(!json.contains("<"), "every < is written \\u003c")
        let initial = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let listStart = try #require(page.firstRange(of: "<ul id=\"rows\""))
        let listEnd = try #require(page[listStart.lowerBound...].firstRange(of: "</ul>"))
        return (initial, String(page[listStart.lowerBound..<listEnd.upperBound]))
    }

    private func canonical(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test(arguments: Backend.available, [0, 330, -480])
    func thePageCarriesTheListsFirstViewInTheViewersZone(backend: Backend, tz: Int) throws {
        let server = try seeded(backend)
        let page = try server.request("GET", "/?list=alice", headers: [("Cookie", "theme=dark; recents-tz=\(tz)")])
        #expect(page.status == 200)
        let (initial, list) = try firstView(page.text)
        #expect(initial["list"] as? String == "alice")
        #expect((initial["view"] as? [String: Any])?["tz"] as? Int == tz)
        #expect((initial["view"] as? [String: Any])?["limit"] as? Int == GetPage.limit)
        // The transition is what GET transitions answers for that view, from nothing.
        let expected = try server.request("GET", "/v1/lists/alice/transitions?limit=50&tz=\(tz)").jsonObject()
        let transition = try #require(initial["transition"] as? [String: Any])
        #expect(try canonical(transition) == canonical(expected))
        // The rules are /v1/rules'.
        let rules = try server.request("GET", "/v1/rules").jsonObject()
        #expect(try canonical(initial["rules"] as? [String: Any] ?? [:]) == canonical(rules))
        // The rows are written in the page's markup, in that zone.
        let inserts = try #require(transition["inserts"] as? [[String: Any]])
        let rows = try inserts.map {
            try JSONDecoder().decode(Row.self, from: JSONSerialization.data(withJSONObject: $0["row"] ?? [:]))
        }
        #expect(rows.count == inserts.count && !rows.isEmpty)
        let now = Int64(Date().timeIntervalSince1970)
        // The server wrote it a moment ago; the times only differ if a minute turned meanwhile.
        let written = [now - 1, now, now + 1].map {
            RowMarkup.list(rows, editing: false, tz: tz, now: $0, buttonWidth: GestureRule.telegram.buttonWidth)
        }
        #expect(written.contains(list))
        #expect(list.contains("&lt;Bob &amp; Co&gt;"))
    }

    @Test func aZoneOutOfRangeOrMalformedIsUTC() throws {
        let server = try seeded(.sqlite)
        for cookie in ["recents-tz=100000", "recents-tz=abc", "other=1"] {
            let page = try server.request("GET", "/?list=alice", headers: [("Cookie", cookie)])
            #expect((try firstView(page.text).initial["view"] as? [String: Any])?["tz"] as? Int == 0, "\(cookie)")
        }
    }

    @Test func withAuthOnThePageCarriesNoList() throws {
        let server = try seeded(.sqlite, auth: true)
        let page = try server.request("GET", "/?list=alice")
        #expect(page.status == 200)
        #expect(!page.text.contains("id=\"recents-initial\""))
        #expect(page.text.contains("<ul id=\"rows\" class=\"rows\" aria-label=\"Calls\"></ul>"))
    }

    @Test func aListNameThatIsNotOneGetsThePlainPage() throws {
        let server = try seeded(.sqlite)
        let page = try server.request("GET", "/?list=no%20such%20list")
        #expect(page.status == 200)
        #expect(!page.text.contains("id=\"recents-initial\""))
    }

    /// Everything the page names resolves to a hashed file served `immutable`, and so does every
    /// reference those files make: a warm load costs one round trip, for the page.
    @Test func everyHashedReferenceResolvesAndIsImmutable() throws {
        let server = try TestServer(.sqlite)
        var pending = [try server.request("GET", "/").text]
        var seen: Set<String> = []
        let reference = /(?:href|src)="([^"]+)"|from\s*'(\.\/[^']+)'|url\("([^"]+)"\)/
        while let text = pending.popLast() {
            for match in text.matches(of: reference) {
                guard let name = match.output.1 ?? match.output.2 ?? match.output.3 else { continue }
                let path = "/" + String(name).replacing("./", with: "")
                guard seen.insert(path).inserted else { continue }
                let response = try server.request("GET", path)
                #expect(response.status == 200, "\(path)")
                #expect(response.headers["cache-control"] == "public, max-age=31536000, immutable", "\(path)")
                #expect(path.split(separator: ".").count >= 3, "\(path) is not a hashed name")
                if path.hasSuffix(".js") || path.hasSuffix(".css") { pending.append(response.text) }
            }
        }
        #expect(seen.count >= 3 && seen.contains { $0.hasPrefix("/app.bundle.") }, "\(seen)")
        // The service worker keeps its one stable name.
        let worker = try server.request("GET", "/sw.js")
        #expect(worker.status == 200)
        #expect(worker.headers["cache-control"] == "no-cache")
    }

    /// Issue 37: the page's script is one request after the page, the bundle of app.js and every
    /// module it imports (each once), while each module stays served by its own names.
    @Test func thePageLoadsOneScriptTheBundleOfItsModules() throws {
        let server = try TestServer(.sqlite)
        let page = try server.request("GET", "/").text
        let scripts = page.matches(of: /<script type="module" src="([^"]+)"><\/script>/).map { String($0.output.1) }
        #expect(scripts.count == 1 && scripts.first?.hasPrefix("app.bundle.") == true, "\(scripts)")
        #expect(!page.contains("modulepreload"))
        let bundle = try server.request("GET", "/" + (scripts.first ?? ""))
        #expect(bundle.status == 200 && bundle.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(bundle.headers["content-security-policy"] == "default-src 'self'")
        let modules = EmbeddedWeb.files.map(\.path).filter { $0.hasSuffix(".js") && $0 != "sw.js" }
        for module in modules {
            #expect(bundle.text.ranges(of: "\n// \(module)\n").count == 1, "\(module) runs once in the bundle")
            #expect(try server.request("GET", "/" + module).status == 200, "\(module) is still served")
        }
        #expect(!bundle.text.contains("\nimport {") && !bundle.text.contains("\nexport "))
    }

    /// A hashed file is its original with only the names it references changed (a bundle has none).
    @Test func hashedFilesDifferFromTheirOriginalsOnlyInNames() throws {
        for file in EmbeddedWeb.hashed where !file.path.contains(".bundle.") {
            let parts = file.path.split(separator: ".")
            let original = (parts.dropLast(2) + [parts.last ?? ""]).joined(separator: ".")
            let source = try #require(EmbeddedWeb.file(at: original), "\(file.path)")
            let unhashed = String(decoding: file.bytes, as: UTF8.self).replacing(/\.[0-9a-f]{16}\./, with: ".")
            #expect(unhashed == String(decoding: source.bytes, as: UTF8.self), "\(file.path)")
        }
    }
}
