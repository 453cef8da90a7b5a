import Testing

@testable import HTTPServer

/// `HTTPRequest` keeps what its head says in one shared box: a copy changed in any field leaves
/// the request it was copied from as it was (value semantics, copy-on-write).
@Suite struct RequestCopyTests {
    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        let original = HTTPRequest(method: .GET, target: "/a/b?x=1", headers: ["Host": "h"])
        var copy = original
        copy.method = .POST
        copy.target = "/c"
        copy.path = "/c"
        copy.pathSegments = ["c"]
        copy.query = []
        copy.headers.add("X", "y")
        copy.host = "k"
        copy.versionMinor = 0
        #expect(original.method == .GET && original.target == "/a/b?x=1" && original.path == "/a/b")
        #expect(original.pathSegments == ["a", "b"] && original.query.map(\.name) == ["x"])
        #expect(original.headers["X"] == nil && original.host == "h" && original.versionMinor == 1)
        #expect(copy.method == .POST && copy.target == "/c" && copy.path == "/c" && copy.pathSegments == ["c"])
        #expect(copy.query.isEmpty && copy.headers["X"] == "y" && copy.host == "k" && copy.versionMinor == 0)
    }

    @Test func eachOfTwoCopiesKeepsItsOwnChange() {
        var a = HTTPRequest(method: .GET, target: "/x")
        var b = a
        a.path = "/a"
        b.path = "/b"
        #expect(a.path == "/a" && b.path == "/b" && a.target == "/x" && b.target == "/x")
    }
}
