/// Event-stream chunks shaped like the server's (docs/API.md, "Event stream"): one transition
/// event with one inserted row, framed as SSE, 700-1,500 bytes, from a fixed-seed generator so
/// every run codes the same bytes.
struct SampleEvents {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    init(seed: UInt64 = 0x5EED_CAFE_F00D_BEEF) { state = seed }

    /// Peer ids and names: a caller's list of contacts.
    private static let peers: [(String, String)] = (0..<60).map { index in
        let first = ["Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Mallory"]
        let last = ["Lee", "Diaz", "Ng", "Wu", "Okafor", "Schmidt"]
        let name = first[index % first.count] + " " + last[index / first.count]
        return (name.lowercased().replacingSpaces(), name)
    }

    /// The next xorshift64 value.
    private mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    /// A call id as clients make them: `c-` and 16 random hex digits.
    private mutating func callID() -> String {
        let hex = String(next(), radix: 16)
        return "c-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The `version`th event: `transition` from `version - 1` to `version`.
    mutating func event(version: Int) -> [UInt8] {
        let id = callID()
        let (peer, name) = Self.peers[Int(next() % UInt64(Self.peers.count))]
        let kind = next() % 4
        let missed = kind == 0
        let outgoing = kind == 3
        let video = next() % 5 == 0
        let duration = missed ? "null" : String(next() % 3600)
        let status = missed ? "missed" : outgoing ? "outgoing" : "incoming"
        let grouped = next() % 3 == 0
        let callIDs = grouped ? "[\"\(id)\",\"\(callID())\"]" : "[\"\(id)\"]"
        let deletes = grouped ? "[{\"index\":0,\"id\":\"\(callID())\"}]" : "[]"
        let timestamp = 1_764_460_800 + version * 61 + Int(next() % 60)
        let text =
            "id: 6jmb0hzq.\(version)\nevent: transition\ndata: {\"list\":\"alice\",\"from\":\(version - 1),\"to\":\(version),"
            + "\"reason\":\"interactiveChanges\",\"options\":[\"animateAlpha\",\"animateInsertion\"],\"deletes\":\(deletes),"
            + "\"inserts\":[{\"index\":0,\"previousIndex\":null,\"id\":\"\(id)\",\"row\":{\"id\":\"\(id)\",\"peer\":"
            + "{\"id\":\"\(peer)\",\"name\":\"\(name)\"},\"count\":\(grouped ? 2 : 1),\"callIds\":\(callIDs),"
            + "\"timestamp\":\(timestamp),\"missed\":\(missed),\"incoming\":\(!outgoing),\"outgoing\":\(outgoing),"
            + "\"video\":\(video),\"duration\":\(duration),\"status\":\"\(status)\",\"revealed\":false,\"editing\":false,"
            + "\"options\":[{\"key\":\"delete\",\"title\":\"Delete\",\"destructive\":true}]},\"directionHint\":\"down\"}],"
            + "\"updates\":[],\"count\":\(50),\"hasMore\":true,\"editing\":false,\"revealedRowId\":null,"
            + "\"epoch\":\"6jmb0hzq\"}\n\n"
        return Array(text.utf8)
    }
}

extension String {
    /// With `-` for each space, as peer ids have no spaces.
    fileprivate func replacingSpaces() -> String { String(map { $0 == " " ? "-" : $0 }) }
}
