import RecentsClient
import RecentsCore

/// Random writes against one list through the client, for property tests.
struct RandomHistory {
    let client: RecentsClient
    let list: String
    var generator: SplitMix64
    private var nextId = 0
    private var timestamp: Int64 = 1_764_460_800

    init(client: RecentsClient, list: String, seed: UInt64) {
        self.client = client
        self.list = list
        generator = SplitMix64(seed: seed)
    }

    /// The views the tests move between: both filters, a small and a default window, two time zones.
    static let views: [ViewParameters] = [
        ViewParameters(), ViewParameters(filter: .missed), ViewParameters(limit: 3),
        ViewParameters(filter: .missed, limit: 2), ViewParameters(tz: 600),
        ViewParameters(filter: .all, limit: 5, tz: -300),
    ]

    mutating func randomView() -> ViewParameters { Self.views.randomElement(using: &generator)! }

    /// A random call: few peers and days, so rows group and split often.
    mutating func randomCall() -> NewCall {
        nextId += 1
        // Mostly newer calls (they land on top, with direction hints), sometimes older ones in between.
        timestamp += Int64.random(in: -20_000...40_000, using: &generator)
        return NewCall(
            id: "c-\(nextId)", peer: .init(id: ["bob", "carol", "dave"].randomElement(using: &generator)!),
            direction: Bool.random(using: &generator) ? .incoming : .outgoing,
            endReason: [.missed, .missed, .hangup, .busy].randomElement(using: &generator)!,
            video: Int.random(in: 0..<5, using: &generator) == 0, duration: Int.random(in: 0...300, using: &generator),
            timestamp: max(0, timestamp))
    }

    /// One random write; the names of what it did, for the failure message.
    mutating func step() async throws -> String {
        let rows = try await client.rows(of: list, view: ViewParameters(limit: 1000)).rows
        let callIds = rows.flatMap(\.callIds)
        let pick = Int.random(in: 0..<100, using: &generator)
        switch pick {
        case 0..<45:
            let calls = (0..<Int.random(in: 1...3, using: &generator)).map { _ in randomCall() }
            try await client.postCalls(calls, to: list)
            return "post \(calls.compactMap(\.id))"
        case 45..<57 where !callIds.isEmpty:
            let id = callIds.randomElement(using: &generator)!
            try await client.deleteCall(id, from: list)
            return "delete \(id)"
        case 57..<72 where !callIds.isEmpty:
            let id = callIds.randomElement(using: &generator)!
            let revealed = Int.random(in: 0..<3, using: &generator) > 0
            try await client.reveal(row: id, in: list, revealed: revealed)
            return "reveal \(id) \(revealed)"
        case 72..<80:
            let editing = Bool.random(using: &generator)
            try await client.setEditing(editing, in: list)
            return "editing \(editing)"
        case 80..<88 where !callIds.isEmpty:
            let id = callIds.randomElement(using: &generator)!
            let gesture = Gesture(
                initialOffset: 0, offset: -Double.random(in: 0...200, using: &generator),
                velocity: Double.random(in: -500...500, using: &generator))
            let reply = try await client.gesture(gesture, row: id, in: list)
            return "gesture \(id) \(reply.outcome)"
        case 88..<95 where !rows.isEmpty:
            let id = rows.randomElement(using: &generator)!.id
            try await client.confirmOption("delete", row: id, in: list, view: ViewParameters(limit: 1000))
            return "delete row \(id)"
        case 95..<98:
            try await client.clear(list)
            return "clear"
        case 98..<100:
            try await client.deleteList(list)
            return "delete list"
        default:
            let calls = [randomCall()]
            try await client.postCalls(calls, to: list)
            return "post \(calls.compactMap(\.id))"
        }
    }
}
