import Foundation
import RecentsTestSupport
import Testing

/// A peer's name is something to show, bounded in bytes (issue 38): 422 naming the field otherwise.
@Suite struct NameInputTests {
    static func call(name: String) -> String {
        #"{"peer": {"id": "bob", "name": "\#(name)"}, "direction": "incoming", "timestamp": 1764460800}"#
    }

    @Test(arguments: [
        (#"Bob\u0000"#, "must not hold control characters"), ("   ", "must not be only whitespace"),
        (#"\u00a0\u3000"#, "must not be only whitespace"), (#"Bob\u001b[31m"#, "must not hold control characters"),
        ("a" + String(repeating: "\u{0301}", count: 30_000), "must be 1 to 256 characters and at most 1024 bytes"),
    ])
    func aNameThatShowsNothingOrIsTooLongIs422NamingIt(name: String, message: String) throws {
        let server = try TestServer(.sqlite)
        let single = try server.request("POST", "/v1/lists/alice/calls", body: Self.call(name: name))
        #expect(single.status == 422)
        #expect(single.json["detail"] as? String == "peer.name \(message)")
        let batch = try server.request(
            "POST", "/v1/lists/alice/calls",
            body: #"{"calls": [\#(Self.call(name: "Bob")), \#(Self.call(name: name))]}"#)
        let errors = batch.json["errors"] as? [[String: Any]]
        #expect(errors?.first?["field"] as? String == "calls[1].peer.name")
        #expect(int(try server.request("GET", "/v1/lists/alice").json["version"]) == 0)
    }
}
