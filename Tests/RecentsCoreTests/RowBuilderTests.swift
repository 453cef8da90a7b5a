import Testing

@testable import RecentsCore

/// One grouping rule: calls (any order), view parameters, and the expected rows' call ids.
struct GroupingCase: Sendable, CustomTestStringConvertible {
    var name: String
    var calls: [Call]
    var parameters: ViewParameters = .default
    var rows: [[String]]

    var testDescription: String { name }
}

@Suite struct RowBuilderTests {
    static let day: Int64 = 86_400

    static let groupingCases: [GroupingCase] = [
        GroupingCase(
            name: "same peer, day, class and video join",
            calls: [makeCall("a", at: 300), makeCall("b", at: 200, .outgoing), makeCall("c", at: 100)],
            rows: [["a", "b", "c"]]),
        GroupingCase(
            name: "another peer breaks the group",
            calls: [makeCall("a", at: 300), makeCall("b", peer: "amy", at: 200), makeCall("c", peer: "amy", at: 100)],
            rows: [["a"], ["b", "c"]]),
        GroupingCase(
            name: "another local day breaks the group",
            calls: [makeCall("a", at: day), makeCall("b", at: day - 1)],
            rows: [["a"], ["b"]]),
        GroupingCase(
            name: "missed class breaks the group",
            calls: [missed("a", at: 300), makeCall("b", at: 200), missed("c", at: 100)],
            rows: [["a"], ["b"], ["c"]]),
        GroupingCase(
            name: "video breaks the group",
            calls: [makeCall("a", at: 300, video: true), makeCall("b", at: 200), makeCall("c", at: 100, video: true)],
            rows: [["a"], ["b"], ["c"]]),
        GroupingCase(
            name: "outgoing unanswered is not missed, so it joins answered calls",
            calls: [makeCall("a", at: 300, .outgoing, .missed), makeCall("b", at: 200, .incoming, .busy)],
            rows: [["a", "b"]]),
        GroupingCase(
            name: "UTC keeps 23:00 and 00:00 apart",
            calls: [makeCall("a", at: day), makeCall("b", at: day - 3600)],
            rows: [["a"], ["b"]]),
        GroupingCase(
            name: "tz -60 moves midnight so 23:00 and 00:00 UTC share a day",
            calls: [makeCall("a", at: day), makeCall("b", at: day - 3600)],
            parameters: ViewParameters(tz: -60), rows: [["a", "b"]]),
        GroupingCase(
            name: "tz +60 moves midnight between 22:59 and 23:00 UTC",
            calls: [makeCall("a", at: day - 3600), makeCall("b", at: day - 3601)],
            parameters: ViewParameters(tz: 60), rows: [["a"], ["b"]]),
        GroupingCase(
            name: "negative timestamps floor: -1 and 0 are different days",
            calls: [makeCall("a", at: 0), makeCall("b", at: -1)],
            rows: [["a"], ["b"]]),
        GroupingCase(
            name: "negative timestamps floor: -1 and -86400 share day -1",
            calls: [makeCall("a", at: -1), makeCall("b", at: -day)],
            rows: [["a", "b"]]),
        GroupingCase(
            name: "negative timestamps floor: -86400 and -86401 differ",
            calls: [makeCall("a", at: -day), makeCall("b", at: -day - 1)],
            rows: [["a"], ["b"]]),
        GroupingCase(
            name: "tz -840 makes 14:00 UTC local midnight",
            calls: [makeCall("a", at: 50_400), makeCall("b", at: 50_399)],
            parameters: ViewParameters(tz: -840), rows: [["a"], ["b"]]),
        GroupingCase(
            name: "tz +840 makes 10:00 UTC local midnight",
            calls: [makeCall("a", at: 36_000), makeCall("b", at: 35_999), makeCall("c", at: 1)],
            parameters: ViewParameters(tz: 840), rows: [["a"], ["b", "c"]]),
        GroupingCase(
            name: "same peer but not consecutive makes separate rows",
            calls: [makeCall("a", at: 300), makeCall("b", peer: "amy", at: 200), makeCall("c", at: 100)],
            rows: [["a"], ["b"], ["c"]]),
        GroupingCase(
            name: "filter missed skips answered calls so missed calls around them join",
            calls: [missed("a", at: 300), makeCall("b", at: 200), missed("c", at: 100)],
            parameters: ViewParameters(filter: .missed), rows: [["a", "c"]]),
        GroupingCase(
            name: "filter missed still breaks on another peer",
            calls: [missed("a", at: 300), missed("b", peer: "amy", at: 200), missed("c", at: 100)],
            parameters: ViewParameters(filter: .missed), rows: [["a"], ["b"], ["c"]]),
        GroupingCase(
            name: "equal timestamps order by id descending byte-wise",
            calls: [makeCall("c-10", at: 100), makeCall("c-2", at: 100), makeCall("C-9", at: 100)],
            rows: [["c-2", "c-10", "C-9"]]),
        GroupingCase(
            name: "input order does not matter",
            calls: [makeCall("c", at: 100), makeCall("a", at: 300), makeCall("b", at: 200)],
            rows: [["a", "b", "c"]]),
    ]

    @Test(arguments: groupingCases)
    func grouping(_ example: GroupingCase) {
        let view = RowBuilder.view(calls: example.calls, state: ListState(), parameters: example.parameters)
        #expect(view.rows.map(\.callIds) == example.rows)
        #expect(view.rows.map(\.id) == example.rows.map { $0[0] })
        #expect(!view.hasMore)
    }

    @Test(arguments: [
        (Int64(0), 0, Int64(0)), (-1, 0, -1), (86_399, 0, 0), (86_400, 0, 1), (-86_400, 0, -1),
        (-86_401, 0, -2), (0, -1, -1), (0, 1, 0), (86_340, 1, 1), (50_399, -840, -1), (50_400, -840, 0),
        (Int64.max, 840, Int64.max / 86_400 + 1), (Int64.min, -840, Int64.min / 86_400 - 2),
    ])
    func localDayFloors(timestamp: Int64, tz: Int, day: Int64) {
        #expect(RowBuilder.localDay(timestamp: timestamp, tz: tz) == day)
    }

    @Test func rowFieldsComeFromTheNewestCall() throws {
        let calls = [
            makeCall("c-1003", peer: "bob", name: "Bob Lee", at: 1_764_464_400, .incoming, .missed),
            makeCall("c-1001", peer: "bob", name: "Bobby", at: 1_764_464_000, .incoming, .missed),
        ]
        let row = try #require(RowBuilder.view(calls: calls, state: ListState(), parameters: .default).rows.first)
        #expect(row.id == "c-1003")
        #expect(row.peer == Peer(id: "bob", name: "Bob Lee"))
        #expect(row.count == 2)
        #expect(row.timestamp == 1_764_464_400)
        #expect(row.missed && row.incoming && !row.outgoing && !row.video)
        #expect(row.duration == nil)
        #expect(row.status == .missed)
        #expect(row.options == [RowOption.delete])
    }

    @Test(arguments: [1, 2, 3])
    func durationIsNullExactlyWhenGrouped(count: Int) throws {
        let calls = (0..<count).map { makeCall("c\($0)", at: Int64(1000 - $0), duration: 42 + $0) }
        let row = try #require(RowBuilder.view(calls: calls, state: ListState(), parameters: .default).rows.first)
        #expect(row.count == count)
        #expect(row.duration == (count == 1 ? 42 : nil))
    }

    @Test(arguments: [
        ([CallDirection.incoming], [EndReason.missed], RowStatus.missed, true, false),
        ([.incoming, .incoming], [.missed, .missed], .missed, true, false),
        ([.incoming, .outgoing], [.hangup, .hangup], .mixed, true, true),
        ([.outgoing, .incoming], [.busy, .disconnect], .mixed, true, true),
        ([.incoming], [.busy], .incoming, true, false),
        ([.outgoing, .outgoing], [.missed, .hangup], .outgoing, false, true),
    ])
    func status(directions: [CallDirection], ends: [EndReason], status: RowStatus, incoming: Bool, outgoing: Bool)
        throws
    {
        let calls = zip(directions, ends).enumerated().map { offset, pair in
            makeCall("c\(offset)", at: Int64(100 - offset), pair.0, pair.1)
        }
        let view = RowBuilder.view(calls: calls, state: ListState(), parameters: .default)
        let row = try #require(view.rows.first)
        #expect(view.rows.count == 1)
        #expect(row.status == status)
        #expect(row.incoming == incoming && row.outgoing == outgoing)
    }

    @Test func revealedAndEditingFollowTheState() {
        let calls = [makeCall("a", at: 300), makeCall("b", peer: "amy", at: 200)]
        let view = RowBuilder.view(
            calls: calls, state: ListState(editing: true, revealedRowId: "b"), parameters: .default)
        #expect(view.rows.map(\.revealed) == [false, true])
        #expect(view.rows.map(\.editing) == [true, true])
    }

    /// Alternating peers, two calls per row: row k holds calls 2k and 2k+1.
    static func pairedCalls(_ count: Int) -> [Call] {
        (0..<count).map { (index: Int) -> Call in
            let peer = (index / 2) % 2 == 0 ? "bob" : "amy"
            let timestamp = Int64(10_000_000) - Int64(index)
            return makeCall("c\(index)", peer: peer, at: timestamp)
        }
    }

    @Test(arguments: [
        // (calls, limit, rows, hasMore)
        (6, 2, 2, true), (6, 3, 3, false), (6, 4, 3, false), (5, 2, 2, true), (3, 1, 1, true), (2, 1, 1, false),
    ])
    func windowAndHasMore(calls: Int, limit: Int, rows: Int, hasMore: Bool) {
        let view = RowBuilder.view(
            orderedCalls: Self.pairedCalls(calls), state: ListState(), parameters: ViewParameters(limit: limit))
        #expect(view.rows.count == rows)
        #expect(view.hasMore == hasMore)
    }

    @Test func theLastRowAbsorbsLaterCallsSoNothingMore() {
        let calls = [
            makeCall("a", peer: "amy", at: 500), makeCall("b", at: 400), makeCall("c", at: 300), makeCall("d", at: 200),
        ]
        let view = RowBuilder.view(orderedCalls: calls, state: ListState(), parameters: ViewParameters(limit: 2))
        #expect(view.rows.map(\.callIds) == [["a"], ["b", "c", "d"]])
        #expect(!view.hasMore)
    }

    @Test func excludedCallsBeyondTheWindowAreNotMore() {
        let calls = [missed("a", at: 500), makeCall("b", peer: "amy", at: 400), makeCall("c", at: 300)]
        let view = RowBuilder.view(
            orderedCalls: calls, state: ListState(), parameters: ViewParameters(filter: .missed, limit: 1))
        #expect(view.rows.map(\.callIds) == [["a"]])
        #expect(!view.hasMore)
        let all = RowBuilder.view(orderedCalls: calls, state: ListState(), parameters: ViewParameters(limit: 1))
        #expect(all.hasMore)
    }

    @Test func stopsPullingOnceTheWindowIsFull() {
        let counter = PullCounter()
        let calls = CountingSequence(base: Self.pairedCalls(100_000), counter: counter)
        let view = RowBuilder.view(orderedCalls: calls, state: ListState(), parameters: ViewParameters(limit: 50))
        #expect(view.rows.count == 50)
        #expect(view.hasMore)
        // 50 rows of two calls, plus the one call that proves a 51st row exists.
        #expect(counter.pulled == 101)
    }

    @Test func unlimitedViewTakesEverything() {
        let view = RowBuilder.view(
            orderedCalls: Self.pairedCalls(1000), state: ListState(), parameters: ViewParameters(limit: Int.max))
        #expect(view.rows.count == 500)
        #expect(!view.hasMore)
    }

    @Test func rowByIdLooksBeyondTheWindowAndStopsThere() throws {
        let counter = PullCounter()
        let calls = CountingSequence(base: Self.pairedCalls(100_000), counter: counter)
        let row = try #require(
            RowBuilder.row(id: "c120", orderedCalls: calls, state: ListState(), filter: .all, tz: 0))
        #expect(row.callIds == ["c120", "c121"])
        #expect(counter.pulled == 123)
    }

    @Test(arguments: ["c121", "nope"])
    func rowByIdIsNilUnlessARowHasThatId(id: String) {
        let row = RowBuilder.row(id: id, orderedCalls: Self.pairedCalls(400), state: ListState(), filter: .all, tz: 0)
        #expect(row == nil)
    }

    @Test func rowByIdAppliesFilterAndState() throws {
        let calls = [missed("a", at: 300), makeCall("b", at: 200), missed("c", at: 100)]
        let state = ListState(editing: true, revealedRowId: "a")
        let row = try #require(RowBuilder.row(id: "a", orderedCalls: calls, state: state, filter: .missed, tz: 0))
        #expect(row.callIds == ["a", "c"])
        #expect(row.revealed && row.editing)
        #expect(RowBuilder.row(id: "c", orderedCalls: calls, state: state, filter: .all, tz: 0)?.callIds == ["c"])
    }

    @Test func precedesIsNewestFirstThenIdDescendingByteWise() {
        #expect(RowBuilder.precedes(makeCall("a", at: 2), makeCall("z", at: 1)))
        #expect(RowBuilder.precedes(makeCall("b", at: 1), makeCall("a", at: 1)))
        #expect(RowBuilder.precedes(makeCall("a", at: 1), makeCall("B", at: 1)))
        #expect(RowBuilder.precedes(makeCall("ab", at: 1), makeCall("a", at: 1)))
        #expect(!RowBuilder.precedes(makeCall("a", at: 1), makeCall("a", at: 1)))
    }
}
