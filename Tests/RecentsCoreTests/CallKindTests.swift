import RecentsCore
import Testing

@Suite struct CallKindTests {
    /// Telegram's `stringForCallType`, written out: (direction, end reason) → kind.
    static let table: [(CallDirection, EndReason, CallKind)] = [
        (.incoming, .hangup, .incoming),
        (.outgoing, .hangup, .outgoing),
        (.incoming, .missed, .missed),
        (.outgoing, .missed, .cancelled),
        (.incoming, .busy, .missed),
        (.outgoing, .busy, .cancelled),
        (.incoming, .disconnect, .cancelled),
        (.outgoing, .disconnect, .cancelled),
    ]

    @Test func theTableCoversEveryDirectionAndEndReason() {
        let covered = Set(Self.table.map { "\($0.0)-\($0.1)" })
        let every = CallDirection.allCases.flatMap { direction in EndReason.allCases.map { "\(direction)-\($0)" } }
        #expect(covered == Set(every))
        #expect(covered.count == Self.table.count)
    }

    /// Every direction × end reason × video: the kind follows the table, and video never changes it.
    @Test(arguments: [false, true])
    func kindFollowsTelegramsRule(video: Bool) {
        for (direction, endReason, expected) in Self.table {
            let call = makeCall("c", at: 1, direction, endReason, video: video)
            #expect(call.kind == expected, "\(direction) \(endReason) video=\(video)")
            #expect(CallKind(direction: direction, endReason: endReason) == expected)
        }
    }

    @Test func theWireWordsAreTheContracts() {
        #expect(CallKind.allCases.map(\.rawValue) == ["incoming", "outgoing", "missed", "cancelled"])
    }

    @Test func rowWithCallsGivesTheRowsCallsNewestFirst() throws {
        let calls = [
            makeCall("d", peer: "carol", at: 400), missed("c", at: 300), makeCall("x", at: 250),
            missed("b", at: 200), missed("a", at: 100),
        ]
        let found = try #require(
            RowBuilder.rowWithCalls(id: "c", orderedCalls: calls, state: ListState(), filter: .missed, tz: 0))
        #expect(found.row.callIds == ["c", "b", "a"])
        #expect(found.calls.map(\.id) == ["c", "b", "a"])
        let all = try #require(
            RowBuilder.rowWithCalls(id: "b", orderedCalls: calls, state: ListState(), filter: .all, tz: 0))
        #expect(all.calls.map(\.id) == ["b", "a"])
        #expect(all.calls == [missed("b", at: 200), missed("a", at: 100)])
        let first = try #require(
            RowBuilder.rowWithCalls(id: "d", orderedCalls: calls, state: ListState(), filter: .all, tz: 0))
        #expect(first.calls.map(\.id) == ["d"])
        #expect(RowBuilder.rowWithCalls(id: "a", orderedCalls: calls, state: ListState(), filter: .all, tz: 0) == nil)
    }

    @Test func aCallFindsTheRowThatGroupsItAfterTheRowWasRenamed() throws {
        // "b" was the row's id until "c" joined the group; the row is now "c" and "b" still finds it.
        let calls = [
            makeCall("d", peer: "carol", at: 400), missed("c", at: 300), makeCall("x", at: 250),
            missed("b", at: 200), missed("a", at: 100),
        ]
        #expect(
            RowBuilder.rowWithCalls(id: "b", orderedCalls: calls, state: ListState(), filter: .missed, tz: 0) == nil)
        let found = try #require(
            RowBuilder.rowWithCalls(containing: "b", orderedCalls: calls, state: ListState(), filter: .missed, tz: 0))
        #expect(found.row.id == "c")
        #expect(found.calls.map(\.id) == ["c", "b", "a"])
        let inAll = try #require(
            RowBuilder.rowWithCalls(containing: "a", orderedCalls: calls, state: ListState(), filter: .all, tz: 0))
        #expect(inAll.row.id == "b")
        #expect(
            RowBuilder.rowWithCalls(containing: "x", orderedCalls: calls, state: ListState(), filter: .missed, tz: 0)
                == nil)
        #expect(
            RowBuilder.rowWithCalls(containing: "gone", orderedCalls: calls, state: ListState(), filter: .all, tz: 0)
                == nil)
    }
}
