import Testing

@testable import RecentsCore

/// The rules of a peer's name (issue 38): bounded in bytes as well as characters, something to
/// show, and no control characters.
@Suite struct PeerNameTests {
    static let tooLong = "must be 1 to 256 characters and at most 1024 bytes"

    @Test(
        arguments: [
            ("Bob Lee", nil), ("é", nil), ("  Bob  ", nil), (String(repeating: "👨‍👩‍👧‍👦", count: 40), nil),
            (String(repeating: "界", count: 256), nil), (String(repeating: "\u{1F600}", count: 256), nil),
            // One character of 60 KB: "a" and 30,000 combining marks.
            ("a" + String(repeating: "\u{0301}", count: 30_000), tooLong),
            (String(repeating: "x", count: 257), tooLong), ("", tooLong),
            // 256 characters, 1,028 bytes.
            (String(repeating: "\u{1F600}", count: 255) + "a\u{0301}\u{0301}", tooLong),
            ("   ", "must not be only whitespace"), ("\t", "must not hold control characters"),
            ("\u{00A0}\u{2003}\u{3000}\u{FEFF}", "must not be only whitespace"),
            ("Bob\u{0000}", "must not hold control characters"), ("Bob\nLee", "must not hold control characters"),
            ("Bob\u{007F}", "must not hold control characters"), ("Bob\u{0085}", "must not hold control characters"),
            ("Bob\u{009F}", "must not hold control characters"), ("\u{00A0}Bob\u{00A0}", nil), ("Bob\u{00A1}", nil),
        ] as [(String, String?)])
    func aNameIsCheckedByEveryRule(name: String, problem: String?) {
        #expect(PeerName.problem(name) == problem)
    }

    @Test func aCallNamesTheFieldOfABadName() {
        let call = Call(id: "c-1", peer: Peer(id: "bob", name: "\u{0000}"), direction: .incoming, timestamp: 1)
        #expect(
            call.validationErrors() == [FieldError(field: "peer.name", message: "must not hold control characters")])
    }
}
