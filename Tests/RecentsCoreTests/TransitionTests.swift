import Testing

@testable import RecentsCore

/// One reason rule: old parameters (nil: no `since`), whether the old view had rows, new parameters.
struct ReasonCase: Sendable, CustomTestStringConvertible {
    var name: String
    var old: ViewParameters?
    var oldHasRows: Bool
    var new: ViewParameters
    var reason: TransitionReason
    var options: [TransitionOption]

    var testDescription: String { name }
}

@Suite struct TransitionTests {
    static let all = ViewParameters(filter: .all, limit: 50, tz: 0)

    static let reasonCases: [ReasonCase] = [
        ReasonCase(
            name: "no since", old: nil, oldHasRows: false, new: all, reason: .initial,
            options: [.lowLatency, .synchronous, .preferSynchronousResourceLoading]),
        ReasonCase(
            name: "filter changed", old: ViewParameters(filter: .missed), oldHasRows: true, new: all,
            reason: .reloadAnimated,
            options: [.lowLatency, .synchronous, .animateCrossfade, .preferSynchronousResourceLoading]),
        ReasonCase(
            name: "filter changed from an empty view", old: ViewParameters(filter: .missed, limit: 9),
            oldHasRows: false, new: all, reason: .reloadAnimated,
            options: [.lowLatency, .synchronous, .animateCrossfade, .preferSynchronousResourceLoading]),
        ReasonCase(
            name: "limit changed", old: ViewParameters(limit: 20), oldHasRows: true, new: all, reason: .reload,
            options: []),
        ReasonCase(
            name: "tz changed", old: ViewParameters(tz: 60), oldHasRows: true, new: all, reason: .reload, options: []),
        ReasonCase(
            name: "same parameters", old: all, oldHasRows: true, new: all, reason: .interactiveChanges,
            options: [.animateAlpha, .animateInsertion]),
        ReasonCase(
            name: "same parameters, since an empty view", old: all, oldHasRows: false, new: all,
            reason: .interactiveChanges, options: [.synchronous, .preferSynchronousResourceLoading]),
    ]

    static func rows(_ calls: [Call], _ parameters: ViewParameters = all, state: ListState = ListState()) -> View {
        RowBuilder.view(calls: calls, state: state, parameters: parameters)
    }

    /// Three rows at 300, 200, 100 by different peers.
    static let base = [makeCall("a", peer: "p1", at: 300), makeCall("b", peer: "p2", at: 200), makeCall("c", at: 100)]

    @Test(arguments: reasonCases)
    func reasonAndOptions(_ example: ReasonCase) throws {
        let old = example.old.map { (view: example.oldHasRows ? Self.rows(Self.base, $0) : View.empty, parameters: $0) }
        let newCalls = Self.base + [makeCall("d", peer: "p3", at: 400)]
        let new = Self.rows(newCalls, example.new)
        let transition = try Transition.make(from: old, to: new, parameters: example.new, state: ListState())
        #expect(transition.reason == example.reason)
        #expect(transition.options == example.options)
        #expect(transition.apply(to: old?.view.rows ?? []) == new.rows)
        #expect(transition.count == new.rows.count)
        // Only interactive changes of a non-empty view hint directions.
        let hinted = transition.inserts.contains { $0.directionHint != nil }
        #expect(hinted == (example.reason == .interactiveChanges && example.oldHasRows))
    }

    @Test func initialInsertsEverythingWithoutHints() throws {
        let new = Self.rows(Self.base)
        let transition = try Transition.make(from: nil, to: new, parameters: Self.all, state: ListState())
        #expect(transition.inserts.map(\.index) == [0, 1, 2])
        #expect(transition.inserts.allSatisfy { $0.directionHint == nil && $0.previousIndex == nil })
        #expect(transition.deletes.isEmpty && transition.updates.isEmpty)
    }

    @Test func onlyTheTopRunOfInsertsSlidesDown() throws {
        let old = Self.rows(Self.base)
        let newCalls =
            Self.base + [
                makeCall("e", peer: "p4", at: 500), makeCall("d", peer: "p3", at: 400),
                makeCall("x", peer: "p5", at: 150),
            ]
        let new = Self.rows(newCalls)
        let transition = try Transition.make(
            from: (old, Self.all), to: new, parameters: Self.all, state: ListState())
        #expect(transition.inserts.map(\.id) == ["e", "d", "x"])
        #expect(transition.inserts.map(\.index) == [0, 1, 4])
        #expect(transition.inserts.map(\.directionHint) == [.down, .down, nil])
        #expect(transition.reason == .interactiveChanges)
    }

    @Test func insertsNotStartingAtTheTopGetNoHint() throws {
        let old = Self.rows(Self.base)
        let new = Self.rows(Self.base + [makeCall("x", peer: "p5", at: 250)])
        let transition = try Transition.make(from: (old, Self.all), to: new, parameters: Self.all, state: ListState())
        #expect(transition.inserts.map(\.index) == [1])
        #expect(transition.inserts.map(\.directionHint) == [nil])
    }

    @Test func stateChangesAreUpdatesAndCarryTheNewState() throws {
        let old = Self.rows(Self.base)
        let state = ListState(editing: false, revealedRowId: "b")
        let new = Self.rows(Self.base, state: state)
        let transition = try Transition.make(from: (old, Self.all), to: new, parameters: Self.all, state: state)
        #expect(transition.updates.map(\.id) == ["b"])
        #expect(transition.updates.map(\.previousIndex) == [1])
        #expect(transition.updates.first?.row.revealed == true)
        #expect(transition.revealedRowId == "b")
        #expect(!transition.isEmpty)
        #expect(transition.apply(to: old.rows) == new.rows)
    }

    @Test func noChangeIsEmpty() throws {
        let view = Self.rows(Self.base)
        let transition = try Transition.make(from: (view, Self.all), to: view, parameters: Self.all, state: ListState())
        #expect(transition.isEmpty)
        #expect(transition.count == 3)
        #expect(transition.options == [.animateAlpha, .animateInsertion])
    }

    @Test func aMergedRowIsAnUpdate() throws {
        let old = Self.rows(Self.base)
        let new = Self.rows(Self.base + [makeCall("b0", peer: "p2", at: 199)])
        let transition = try Transition.make(from: (old, Self.all), to: new, parameters: Self.all, state: ListState())
        #expect(transition.updates.map(\.id) == ["b"])
        #expect(transition.updates.first?.row.callIds == ["b", "b0"])
        #expect(transition.inserts.isEmpty && transition.deletes.isEmpty)
    }

    @Test func hasMoreComesFromTheNewView() throws {
        let new = Self.rows(Self.base, ViewParameters(limit: 2))
        let transition = try Transition.make(
            from: nil, to: new, parameters: ViewParameters(limit: 2), state: ListState(editing: true))
        #expect(transition.hasMore)
        #expect(transition.editing)
        #expect(transition.count == 2)
    }

    // MARK: Property

    /// Random lists, changes, states and windows: transitions apply exactly and have the contract's shape.
    @Test func propertyRandomTransitions() throws {
        let seed = propertySeed("propertyRandomTransitions")
        var random = SplitMix64(seed: seed)
        let peers = ["amy", "bob", "cat"]
        var nextId = 0
        func randomCall() -> Call {
            nextId += 1
            let direction: CallDirection = Bool.random(using: &random) ? .incoming : .outgoing
            let end: EndReason = Int.random(in: 0..<3, using: &random) == 0 ? .missed : .hangup
            return makeCall(
                "c\(nextId)", peer: peers[Int.random(in: 0..<peers.count, using: &random)],
                at: Int64.random(in: 0...(3 * 86_400), using: &random) / 3600 * 3600 - 86_400,
                direction, end, video: Int.random(in: 0..<5, using: &random) == 0,
                duration: Int.random(in: 0...3, using: &random))
        }
        func randomParameters() -> ViewParameters {
            ViewParameters(
                filter: Bool.random(using: &random) ? .all : .missed, limit: Int.random(in: 1...12, using: &random),
                tz: [-840, -60, 0, 90, 840][Int.random(in: 0..<5, using: &random)])
        }
        func randomState(_ rows: [Row]) -> ListState {
            var state = ListState(editing: Int.random(in: 0..<4, using: &random) == 0)
            if let row = rows.randomElement(using: &random), Bool.random(using: &random) {
                state.revealedRowId = row.id
            }
            return state
        }
        for round in 0..<2000 {
            var calls = (0..<Int.random(in: 0...25, using: &random)).map { _ in randomCall() }
            let oldParameters = randomParameters()
            let oldState = randomState(Self.rows(calls, oldParameters).rows)
            let oldView = RowBuilder.view(calls: calls, state: oldState, parameters: oldParameters)
            // Delete some calls, add some, maybe change the view.
            calls.removeAll { _ in Int.random(in: 0..<6, using: &random) == 0 }
            calls += (0..<Int.random(in: 0...4, using: &random)).map { _ in randomCall() }
            let newParameters = Int.random(in: 0..<3, using: &random) == 0 ? randomParameters() : oldParameters
            let newState = randomState(Self.rows(calls, newParameters).rows + oldView.rows)
            let newView = RowBuilder.view(calls: calls, state: newState, parameters: newParameters)
            let since = Int.random(in: 0..<8, using: &random) == 0 ? nil : (view: oldView, parameters: oldParameters)

            let transition = try Transition.make(from: since, to: newView, parameters: newParameters, state: newState)
            let oldRows = since?.view.rows ?? []
            let context = Comment(rawValue: "seed \(seed) round \(round)")
            #expect(transition.apply(to: oldRows) == newView.rows, context)
            #expect(transition.count == newView.rows.count && transition.hasMore == newView.hasMore, context)
            #expect(transition.editing == newState.editing && transition.revealedRowId == newState.revealedRowId)
            ListDiffTests.checkInvariants(transition.diff, old: oldRows, new: newView.rows, context: context)
            // API-ordered rows never move, and the fast path agrees with the general one.
            #expect(transition.diff.moveCount == 0, context)
            #expect(transition.diff == (try ListDiff<String>.diff(from: oldRows, to: newView.rows)), context)
            for insert in transition.inserts { #expect(insert.row == newView.rows[insert.index], context) }
            for update in transition.updates { #expect(update.row == newView.rows[update.index], context) }
            // Hints: exactly the inserts at 0, 1, 2, ... in interactive changes of a non-empty view.
            var expectedHint = transition.reason == .interactiveChanges && !oldRows.isEmpty
            for (position, insert) in transition.inserts.enumerated() {
                expectedHint = expectedHint && insert.index == position
                #expect(insert.directionHint == (expectedHint ? .down : nil), context)
            }
        }
    }
}

@Suite struct TransitionErrorTests {
    @Test func duplicateRowIdsAreRejected() throws {
        let view = RowBuilder.view(calls: TransitionTests.base, state: ListState(), parameters: .default)
        let doubled = View(rows: view.rows + view.rows.prefix(1), hasMore: false)
        #expect(throws: DiffError.duplicateID(side: .new, index: 3)) {
            try Transition.make(from: (view, .default), to: doubled, parameters: .default, state: ListState())
        }
        #expect(throws: DiffError.duplicateID(side: .old, index: 3)) {
            try Transition.make(from: (doubled, .default), to: view, parameters: .default, state: ListState())
        }
    }
}
