import Testing

@testable import RecentsCore

/// RowBuilder against a literal reading of the contract, on random lists.
@Suite struct RowBuilderPropertyTests {
    /// The contract's rules 1-3, written as plainly as possible (no early stop, no cleverness).
    static func referenceView(_ calls: [Call], state: ListState, parameters: ViewParameters) -> View {
        let ordered = calls.filter { parameters.filter == .all || $0.isMissed }.sorted { a, b in
            a.timestamp != b.timestamp ? a.timestamp > b.timestamp : b.id.utf8.lexicographicallyPrecedes(a.id.utf8)
        }
        func day(_ call: Call) -> Int64 {
            let local = call.timestamp + Int64(parameters.tz) * 60
            return local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
        }
        var groups: [[Call]] = []
        for call in ordered {
            if let previous = groups.last?.last, previous.peer.id == call.peer.id, day(previous) == day(call),
                previous.isMissed == call.isMissed, previous.video == call.video
            {
                groups[groups.count - 1].append(call)
            } else {
                groups.append([call])
            }
        }
        let rows = groups.prefix(parameters.limit).map { group -> Row in
            let newest = group[0]
            let incoming = group.contains { $0.direction == .incoming }
            let outgoing = group.contains { $0.direction == .outgoing }
            let status: RowStatus =
                newest.isMissed ? .missed : (incoming && outgoing ? .mixed : (incoming ? .incoming : .outgoing))
            return Row(
                id: newest.id, peer: newest.peer, count: group.count, callIds: group.map(\.id),
                timestamp: newest.timestamp, missed: newest.isMissed, incoming: incoming, outgoing: outgoing,
                video: newest.video, duration: group.count == 1 ? newest.duration : nil, status: status,
                revealed: state.revealedRowId == newest.id, editing: state.editing)
        }
        return View(rows: Array(rows), hasMore: groups.count > parameters.limit)
    }

    @Test func matchesTheReferenceOnRandomLists() {
        let seed = propertySeed("matchesTheReferenceOnRandomLists")
        var random = SplitMix64(seed: seed)
        let peers = [Peer(id: "amy", name: "Amy"), Peer(id: "bob", name: "Bob"), Peer(id: "bob", name: "Robert")]
        for round in 0..<1500 {
            let calls = (0..<Int.random(in: 0...30, using: &random)).map { index in
                Call(
                    id: "c\(Int.random(in: 0...9, using: &random))-\(index)",
                    peer: peers[Int.random(in: 0..<peers.count, using: &random)],
                    direction: Bool.random(using: &random) ? .incoming : .outgoing,
                    endReason: EndReason.allCases[Int.random(in: 0..<4, using: &random)],
                    video: Int.random(in: 0..<4, using: &random) == 0, duration: Int.random(in: 0...9, using: &random),
                    timestamp: Int64.random(in: -3...3, using: &random) * 21_600
                        + Int64.random(in: -2...2, using: &random))
            }
            let parameters = ViewParameters(
                filter: Bool.random(using: &random) ? .all : .missed, limit: Int.random(in: 1...8, using: &random),
                tz: Int.random(in: -840...840, using: &random))
            let state = ListState(
                editing: Bool.random(using: &random), revealedRowId: calls.randomElement(using: &random)?.id)
            let context = Comment(rawValue: "seed \(seed) round \(round)")
            let expected = Self.referenceView(calls, state: state, parameters: parameters)
            #expect(RowBuilder.view(calls: calls, state: state, parameters: parameters) == expected, context)

            // The in-place array walk and the generic sequence walk agree, and pulls stay bounded.
            let ordered = calls.sorted(by: RowBuilder.precedes)
            let counter = PullCounter()
            let lazy = RowBuilder.view(
                orderedCalls: CountingSequence(base: ordered, counter: counter), state: state, parameters: parameters)
            #expect(lazy == expected, context)
            let shown = expected.rows.reduce(0) { $0 + $1.count }
            let skipped = ordered.filter { !parameters.includes($0) }.count
            #expect(counter.pulled <= shown + skipped + 1, context)

            // Every row of the unlimited view is found by id, and nothing else is.
            let everything = Self.referenceView(
                calls, state: state,
                parameters: ViewParameters(filter: parameters.filter, limit: 1000, tz: parameters.tz))
            for row in everything.rows {
                let found = RowBuilder.row(
                    id: row.id, orderedCalls: ordered, state: state, filter: parameters.filter, tz: parameters.tz)
                #expect(found == row, context)
            }
            let rowIds = Set(everything.rows.map(\.id))
            for call in calls where !rowIds.contains(call.id) {
                let found = RowBuilder.row(
                    id: call.id, orderedCalls: ordered, state: state, filter: parameters.filter, tz: parameters.tz)
                #expect(found == nil, context)
            }

            // Every call of the unlimited view finds its row, with the row's calls in its order;
            // a call the filter leaves out finds none.
            let rowOfCall = Dictionary(
                everything.rows.flatMap { row in row.callIds.map { ($0, row) } },
                uniquingKeysWith: { first, _ in first })
            for call in calls {
                let found = RowBuilder.rowWithCalls(
                    containing: call.id, orderedCalls: ordered, state: state, filter: parameters.filter,
                    tz: parameters.tz)
                #expect(found?.row == rowOfCall[call.id], context)
                #expect(found.map { $0.calls.map(\.id) } == rowOfCall[call.id]?.callIds, context)
            }
        }
    }
}
