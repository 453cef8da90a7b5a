import Foundation
import RecentsClient
import RecentsCore
import RecentsTestSupport
import Testing

/// Tests/Fixtures/grouping.json as the Swift client reads it (written from RowBuilder by
/// RecentsCoreTests' `GroupingFixtureTests`).
struct GroupingFixture: Decodable {
    struct Case: Decodable {
        var name: String
        var view: ViewParameters
        var state: ListState
        /// `GET rows` of the view before the first step.
        var rows: [Row]
        var hasMore: Bool
        var steps: [Step]
    }

    /// One change and the server's view after it; `shown` (after an own action) is what a client shows at once.
    struct Step: Decodable {
        var insert: [Call]?
        var deleteCalls: [String]?
        var deleteRow: String?
        var filter: CallFilter?
        var tz: Int?
        var clear: Bool?
        var deleted: [String]
        var rows: [Row]
        var hasMore: Bool
        var editing: Bool
        var revealedRowId: String?
        var shown: View?
    }

    var cases: [Case]

    static func load() throws -> GroupingFixture {
        try JSONDecoder().decode(GroupingFixture.self, from: Data(contentsOf: sharedFixture("grouping.json")))
    }
}

@Suite("ListScreen groups as the server on grouping.json")
struct GroupingFixtureClientTests {
    /// Every own action of the fixture, applied by `ListScreen` to the last server view with the
    /// own actions since, shows the fixture's `shown`: neighbours joined as RowBuilder joins them,
    /// and no row the server will not send.
    @Test func ownActionsShowWhatTheFixtureShows() throws {
        let fixture = try GroupingFixture.load()
        #expect(fixture.cases.count >= 30)
        var checked = 0
        for example in fixture.cases {
            var server = ListScreen(
                rows: example.rows, state: example.state, hasMore: example.hasMore, view: example.view)
            var screen = server
            var pending: [ListAction] = []
            for (index, step) in example.steps.enumerated() {
                guard let shown = step.shown else {
                    // A server change: the client now shows the server's view, nothing pending.
                    let state = ListState(editing: step.editing, revealedRowId: step.revealedRowId)
                    server = ListScreen(rows: step.rows, state: state, hasMore: step.hasMore, view: example.view)
                    (screen, pending) = (server, [])
                    continue
                }
                pending.append(try Self.action(step, index: index, on: screen, in: example.view))
                screen = server.applying(pending)
                checked += 1
                #expect(screen.rows == shown.rows, "\(example.name), step \(index)")
                #expect(screen.hasMore == shown.hasMore, "\(example.name), step \(index)")
                #expect(screen.state.revealedRowId == step.revealedRowId, "\(example.name), step \(index)")
            }
        }
        #expect(checked >= 40)
    }

    /// The action the client takes for an own step: Delete on a row as its view shows it (the
    /// screen's row in the case's view; in another view, the calls the row had there), or Delete all.
    static func action(_ step: GroupingFixture.Step, index: Int, on screen: ListScreen, in view: ViewParameters) throws
        -> ListAction
    {
        let id = "k\(index)"
        guard let rowId = step.deleteRow else {
            return ListAction(
                id: id, list: "l", intent: .clear(scope: .me), view: view, callIds: screen.rows.flatMap(\.callIds))
        }
        let rowView = ViewParameters(filter: step.filter ?? view.filter, limit: view.limit, tz: step.tz ?? view.tz)
        var callIds = step.deleted
        if rowView.filter == view.filter && rowView.tz == view.tz {
            callIds = try #require(screen.rows.first { $0.id == rowId }).callIds
        }
        return ListAction(
            id: id, list: "l", intent: .deleteRow(rowId: rowId, scope: .me), view: rowView, callIds: callIds)
    }
}
