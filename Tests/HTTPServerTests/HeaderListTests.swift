import HTTPServer
import Testing

/// `HTTPHeaders.addListToken`: the members of a list field (`Vary`) are kept once each, in one field.
@Suite struct HeaderListTests {
    @Test(arguments: [
        ([], "Authorization", ["Authorization"]),
        (["Accept-Encoding"], "Authorization", ["Accept-Encoding, Authorization"]),
        (["Accept-Encoding, Origin"], "origin", ["Accept-Encoding, Origin"]),
        (["accept-encoding ,\tAUTHORIZATION"], "Authorization", ["accept-encoding ,\tAUTHORIZATION"]),
        (["*"], "Origin", ["*"]),
        (["Origin", "Accept-Encoding"], "Accept-Encoding", ["Origin", "Accept-Encoding"]),
        (["Origin", "Accept"], "Authorization", ["Origin, Authorization", "Accept"]),
        (["Originx"], "Origin", ["Originx, Origin"]),
        (["", "Or"], "Origin", [", Origin", "Or"]),
    ])
    func aTokenIsAddedOnceToTheFirstField(existing: [String], token: String, expected: [String]) {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json")
        for value in existing { headers.add("Vary", value) }
        headers.addListToken(token, to: "Vary")
        #expect(headers.values(for: "vary") == expected)
        #expect(headers.values(for: "Content-Type") == ["application/json"])
    }
}
