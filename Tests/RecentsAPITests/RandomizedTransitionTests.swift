import Foundation
import RecentsCore
import RecentsTestSupport
import Testing

@Suite struct RandomizedTransitionTests {
    static let views = ["filter=all&limit=5&tz=0", "filter=missed&limit=50&tz=0", "filter=all&limit=50&tz=120"]

    /// Random writes; after each, the transition from a random retained earlier version (and view),
    /// applied to that version's rows, must give exactly the current rows.
    @Test(arguments: Backend.available)
    func transitionsFromRandomEarlierVersionsReproduceTheCurrentRows(
        backend: Backend
    ) throws {
        let seed = testSeed("RandomizedTransitionTests")
        var random = SplitMix64(seed: seed)
        let server = try TestServer(backend, socket: true)
        let client = try server.client()
        let peers = ["bob", "carol", "dave"]
        var snapshots: [Int64: [String: [Row]]] = [:]
        var nextCall = 0
        var liveIds: [String] = []

        func snapshot() throws -> Int64 {
            var version: Int64 = -1
            var byView: [String: [Row]] = [:]
            for view in Self.views {
                let reply = try client.request("GET", "/v1/lists/alice/rows?\(view)").decode(RowsReply.self)
                if version >= 0 { #expect(Int64(reply.version) == version) }
                version = Int64(reply.version)
                byView[view] = reply.rows
            }
            snapshots[version] = byView
            return version
        }

        _ = try snapshot()
        for _ in 0..<120 {
            let action = Int.random(in: 0..<10, using: &random)
            switch action {
            case 0..<5:
                let count = Int.random(in: 1...3, using: &random)
                let calls = (0..<count).map { _ -> String in
                    nextCall += 1
                    liveIds.append("c-\(nextCall)")
                    return callJSON(
                        "c-\(nextCall)", peer: peers.randomElement(using: &random) ?? "bob",
                        direction: Bool.random(using: &random) ? "incoming" : "outgoing",
                        endReason: Bool.random(using: &random) ? "missed" : "hangup",
                        video: Int.random(in: 0..<5, using: &random) == 0,
                        timestamp: 1_764_460_800 + Int.random(in: -200_000...200_000, using: &random))
                }
                try client.request(
                    "POST", "/v1/lists/alice/calls", body: #"{"calls": [\#(calls.joined(separator: ","))]}"#)
            case 5:
                if let id = liveIds.randomElement(using: &random) {
                    try client.request("DELETE", "/v1/lists/alice/calls/\(id)")
                    liveIds.removeAll { $0 == id }
                }
            case 6, 7:
                if let id = liveIds.randomElement(using: &random) {
                    try client.request(
                        "PUT", "/v1/lists/alice/rows/\(id)/reveal",
                        body: #"{"revealed": \#(Bool.random(using: &random))}"#)
                }
            case 8:
                try client.request(
                    "PUT", "/v1/lists/alice/editing", body: #"{"editing": \#(Bool.random(using: &random))}"#)
            default:
                let rows = snapshots.values.first?["filter=all&limit=50&tz=120"] ?? []
                if let row = rows.randomElement(using: &random), liveIds.contains(row.id) {
                    let deleted = try client.request("POST", "/v1/lists/alice/rows/\(row.id)/options/delete?tz=120")
                    let ids = deleted.json["deletedCallIds"] as? [String] ?? []
                    liveIds.removeAll { ids.contains($0) }
                }
            }
            let current = try snapshot()
            let since = snapshots.keys.randomElement(using: &random) ?? 0
            let from = Self.views.randomElement(using: &random) ?? Self.views[0]
            let to = Self.views.randomElement(using: &random) ?? Self.views[0]
            let fromQuery = from.replacingOccurrences(of: "filter=", with: "fromFilter=")
                .replacingOccurrences(of: "limit=", with: "fromLimit=").replacingOccurrences(of: "tz=", with: "fromTz=")
            let reply = try client.request("GET", "/v1/lists/alice/transitions?since=\(since)&\(to)&\(fromQuery)")
                .decode(TransitionReply.self)
            #expect(reply.to == current)
            let old = snapshots[since]?[from] ?? []
            let applied = reply.apply(to: old)
            #expect(applied == snapshots[current]?[to], "seed \(seed): since \(since) \(from) → \(current) \(to)")
            #expect(reply.inserts.allSatisfy { $0.previousIndex == nil }, "views of this API never move rows")
        }
    }
}
