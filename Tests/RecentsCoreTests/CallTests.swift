import Testing

@testable import RecentsCore

@Suite struct CallTests {
    @Test func missedIsIncomingAndMissed() {
        let peer = Peer(id: "bob", name: "Bob")
        #expect(Call(id: "a", peer: peer, direction: .incoming, endReason: .missed, timestamp: 1).isMissed)
        #expect(!Call(id: "a", peer: peer, direction: .outgoing, endReason: .missed, timestamp: 1).isMissed)
        #expect(!Call(id: "a", peer: peer, direction: .incoming, endReason: .busy, timestamp: 1).isMissed)
    }

    @Test(arguments: [
        ("bob", true), ("a.b_c-9", true), (String(repeating: "x", count: 64), true),
        ("", false), (String(repeating: "x", count: 65), false), ("a:b", false), ("é", false), ("a b", false),
    ])
    func listNameAlphabet(name: String, valid: Bool) {
        #expect(Identifier.isValidListName(name) == valid)
    }

    @Test(arguments: [
        ("c-1:2", true), (String(repeating: "x", count: 128), true),
        ("", false), (String(repeating: "x", count: 129), false), ("a/b", false),
    ])
    func idAlphabet(id: String, valid: Bool) {
        #expect(Identifier.isValidId(id) == valid)
    }

    @Test func validationNamesEachBrokenMember() {
        let call = Call(
            id: "bad id", peer: Peer(id: "b:b", name: ""), direction: .incoming, duration: 86_401, timestamp: -1)
        let fields = call.validationErrors().map(\.field)
        #expect(fields == ["id", "peer.id", "peer.name", "duration", "timestamp"])
    }
}
