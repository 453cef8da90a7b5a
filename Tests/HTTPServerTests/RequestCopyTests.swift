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

    /// `receivedAt` is kept as a distance from a fixed instant (a frozen layout): whatever instant
    /// is given or set, before or after that origin, is the instant read back, and a copy keeps it.
    @Test func receivedAtReadsBackTheInstantGivenOrSet() {
        let now = ContinuousClock.now
        let earlier = now - .seconds(3600)
        var request = HTTPRequest(method: .GET, target: "/x", receivedAt: earlier)
        #expect(request.receivedAt == earlier)
        let copy = request
        request.receivedAt = now + .milliseconds(1500)
        #expect(request.receivedAt == now + .milliseconds(1500))
        #expect(copy.receivedAt == earlier)
        #expect(copy.receivedAt.duration(to: request.receivedAt) == .seconds(3601.5))
    }
}
