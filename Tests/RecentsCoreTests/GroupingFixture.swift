import RecentsCore

/// One case of Tests/Fixtures/grouping.json: a list's calls seen in one view, then changes to it.
struct GroupingScenario {
    /// What a change to the list is, in the order the steps of a case happen.
    enum Step {
        /// Another device posts calls (a server change).
        case insert([Call])
        /// Another device deletes calls by id, `DELETE …/calls/{id}` (a server change).
        case deleteCalls([String])
        /// Own Delete on the row `id` of the view with that filter and zone (the case's view when
        /// nil): the server deletes the row as that view groups it.
        case deleteRow(String, filter: CallFilter? = nil, tz: Int? = nil)
        /// Own Delete all.
        case clear

        /// Whether a client shows it before the server answers (an own action).
        var isOwn: Bool {
            switch self {
            case .insert, .deleteCalls: return false
            case .deleteRow, .clear: return true
            }
        }
    }

    var name: String
    var view: ViewParameters
    var state = ListState()
    var calls: [Call]
    var steps: [Step] = []
}

/// A case worked out by RowBuilder: the server's view after each step and, after an own action,
/// what a client that holds only the rows shows at once.
struct EvaluatedScenario {
    struct Outcome {
        var step: GroupingScenario.Step
        /// The calls the step deleted (for a row: the row's calls as its view groups them).
        var deleted: [String]
        /// `GET rows` of the case's view after the step.
        var truth: View
        var state: ListState
        /// After an own action: what a client shows from the rows it had when the run of own
        /// actions began (the last server view it knows) with them all applied; nil after a server change.
        var shown: View?
    }

    var source: GroupingScenario
    var initial: View
    var outcomes: [Outcome]
    /// The list's calls after the last step.
    var aliveCalls: [Call]
    /// Steps the case cannot take as written (an id that exists already, a row that is not
    /// there or not on screen): kept, not trapped, so a broken RowBuilder fails tests instead of the run.
    var problems: [String] = []

    init(_ source: GroupingScenario) {
        self.source = source
        let view = source.view
        var calls = source.calls
        var state = source.state
        initial = RowBuilder.view(calls: calls, state: state, parameters: view)
        // The server view a client holds, and the own calls deleted since it got it.
        var base = initial
        var shownNow = initial
        var gone: Set<String> = []
        var cleared = false
        outcomes = []
        for step in source.steps {
            let alive = Set(calls.map(\.id))
            var deleted: [String] = []
            var resolved = step
            switch step {
            case .insert(let new):
                if new.contains(where: { alive.contains($0.id) }) {
                    problems.append("\(source.name): an inserted id exists")
                }
                calls += new.filter { !alive.contains($0.id) }
            case .deleteCalls(let ids):
                deleted = ids.filter(alive.contains)
            case .deleteRow(let id, let filter, let tz):
                let filter = filter ?? view.filter
                let tz = tz ?? view.tz
                resolved = .deleteRow(id, filter: filter, tz: tz)
                let ordered = calls.filter { filter == .all || $0.isMissed }.sorted(by: RowBuilder.precedes)
                let row = RowBuilder.row(id: id, orderedCalls: ordered, state: state, filter: filter, tz: tz)
                if row == nil { problems.append("\(source.name): no row \(id) in \(filter) tz \(tz)") }
                // The user can delete only a row on screen, and the screen knows its calls.
                if let row, filter == view.filter && tz == view.tz,
                    !shownNow.rows.contains(where: { $0.callIds == row.callIds })
                {
                    problems.append("\(source.name): \(id) not shown")
                }
                deleted = row?.callIds ?? []
            case .clear:
                deleted = calls.map(\.id)
            }
            let removed = Set(deleted)
            calls.removeAll { removed.contains($0.id) }
            state = state.removingCalls(deleted).state
            let truth = RowBuilder.view(calls: calls, state: state, parameters: view)
            var shown: View?
            if step.isOwn {
                if case .clear = step { cleared = true }
                gone.formUnion(deleted)
                let rows =
                    cleared ? [] : Self.shownRows(window: base, gone: gone, calls: calls, state: state, view: view)
                shown = View(rows: rows, hasMore: cleared ? false : base.hasMore)
                shownNow = shown ?? truth
            } else {
                // A server change confirms the own actions before it: the client's view is the server's.
                (base, shownNow, gone, cleared) = (truth, truth, [], false)
            }
            outcomes.append(Outcome(step: resolved, deleted: deleted, truth: truth, state: state, shown: shown))
        }
        aliveCalls = calls
    }

    /// The rows of the server's new view that a client holding only `window` (its rows and
    /// `hasMore`) can know once the calls `gone` are deleted: made of whole rows of the window that
    /// lost no call (a row that lost some keeps calls whose newest time, duration and directions
    /// no row says), and, when more rows follow the window and its last row is gone, not the last
    /// of them (it may join rows beyond the window).
    static func shownRows(window: View, gone: Set<String>, calls: [Call], state: ListState, view: ViewParameters)
        -> [Row]
    {
        let windowCalls = Set(window.rows.flatMap(\.callIds))
        let unlimited = ViewParameters(filter: view.filter, limit: .max, tz: view.tz)
        let rows = RowBuilder.view(calls: calls, state: state, parameters: unlimited).rows
            .filter { $0.callIds.contains(where: windowCalls.contains) }
        let lastGone = window.hasMore && (window.rows.last?.callIds.allSatisfy(gone.contains) ?? false)
        return rows.enumerated().compactMap { index, row in
            let ids = Set(row.callIds)
            guard ids.isSubset(of: windowCalls) else { return nil }
            let parts = window.rows.filter { $0.callIds.contains(where: ids.contains) }
            guard parts.allSatisfy({ Set($0.callIds).isSubset(of: ids) }) else { return nil }
            return lastGone && index == rows.count - 1 ? nil : row
        }
    }
}
