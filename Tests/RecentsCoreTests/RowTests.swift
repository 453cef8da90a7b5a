import Testing

@testable import RecentsCore

@Suite struct RowTests {
    static func sample() -> Row {
        Row(
            id: "c-1", peer: Peer(id: "bob", name: "Bob"), count: 1, callIds: ["c-1"], timestamp: 10, missed: false,
            incoming: true, outgoing: false, video: false, duration: 5, status: .incoming, revealed: false,
            editing: false)
    }

    @Test func rowsAreValuesDespiteTheSharedBox() {
        let original = Self.sample()
        var copy = original
        copy.revealed = true
        copy.callIds.append("c-0")
        #expect(original.revealed == false && original.callIds == ["c-1"])
        #expect(copy.revealed && copy.callIds == ["c-1", "c-0"])
        #expect(copy != original)
        copy.revealed = false
        copy.callIds = ["c-1"]
        #expect(copy == original)
        #expect(copy.hashValue == original.hashValue)
        #expect(Set([copy, original]).count == 1)
    }

    @Test(arguments: [
        (Int64(20), "a", Int64(10), "z", true), (10, "b", 10, "a", true), (10, "a", 10, "B", true),
        (10, "a", 10, "a", false), (10, "a", 20, "z", false), (10, "a", 10, "ab", false),
    ])
    func rowOrderIsNewestFirstThenIdDescendingByteWise(
        timestampA: Int64, idA: String, timestampB: Int64, idB: String, precedes: Bool
    ) {
        var a = Self.sample()
        a.timestamp = timestampA
        a.id = idA
        var b = Self.sample()
        b.timestamp = timestampB
        b.id = idB
        #expect(Row.precedes(a, b) == precedes)
    }

    @Test(arguments: [
        ("", "", 0), ("a", "", 1), ("", "a", -1), ("abc", "abd", -1), ("abcdefghijklmnopq", "abcdefghijklmnopq", 0),
        ("Z", "a", -1), ("é", "z", 1), ("e\u{301}", "é", -1),
    ])
    func bytewiseCompare(a: String, b: String, expected: Int) {
        #expect(Bytewise.compare(a, b) == expected)
        #expect(Bytewise.less(a, b) == (expected < 0))
        #expect(Bytewise.equal(a, b) == (expected == 0))
        #expect(Bytewise.equal(b, a) == (expected == 0))
    }
}
