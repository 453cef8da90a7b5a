import Foundation
import Testing

@testable import RecentsCore

/// `Tests/Fixtures/grouping.json`: RowBuilder's grouping on cases of inserts, deletes that join
/// and split rows, own deletes of whole rows and of some calls of a row, clear, both filters,
/// zones either side of UTC and windows with more rows beyond. The Swift client
/// (`RecentsClientTests`), the web page's `actions.js` and the JS test server `model-server.mjs`
/// (node's `Tests/Web/grouping.test.mjs`) are tested on it. This test fails when the fixture is not
/// what RowBuilder makes, so none of them can drift from the server unnoticed; regenerate it with
/// `RECENTS_WRITE_FIXTURES=1 swift test --filter GroupingFixtureTests` after changing the rule.
@Suite struct GroupingFixtureTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/grouping.json").standardized

    static let cases = (GroupingScenario.table + GroupingScenario.random(count: 14, seed: 40)).map(
        EvaluatedScenario.init)

    /// Every step is one the case can take: its rows exist, and a delete in the case's view is of a row on screen.
    @Test func everyStepIsPossible() {
        #expect(Self.cases.flatMap(\.problems) == [])
    }

    @Test func theFixtureIsWhatRowBuilderMakes() throws {
        let expected = EvaluatedScenario.render(Self.cases)
        if ProcessInfo.processInfo.environment["RECENTS_WRITE_FIXTURES"] == "1" {
            try expected.write(to: Self.fixture, atomically: true, encoding: .utf8)
        }
        let stored = try String(contentsOf: Self.fixture, encoding: .utf8)
        #expect(stored == expected, "regenerate with RECENTS_WRITE_FIXTURES=1 swift test --filter GroupingFixtureTests")
    }

    /// What a client shows at once is rows the server will send, in its order: never a row it will not.
    @Test func whatAClientShowsIsRowsTheServerSends() {
        for example in Self.cases {
            for outcome in example.outcomes {
                guard let shown = outcome.shown else { continue }
                var rest = outcome.truth.rows[...]
                for row in shown.rows {
                    guard let index = rest.firstIndex(of: row) else {
                        Issue.record("\(example.source.name): \(row.id) is shown but not sent")
                        break
                    }
                    rest = rest[(index + 1)...]
                }
            }
        }
    }

    /// Rows folded by `joins`/`joined` from one-call rows are RowBuilder's rows, in every view of every case.
    @Test func joiningRowsIsGroupingTheirCalls() {
        for example in Self.cases {
            let calls = example.source.calls
            for view in [example.source.view, ViewParameters(filter: .missed, tz: -example.source.view.tz)] {
                let single = calls.filter(view.includes).sorted(by: RowBuilder.precedes).compactMap { call in
                    RowBuilder.view(calls: [call], state: example.source.state, parameters: view).rows.first
                }
                var folded: [Row] = []
                for row in single {
                    if let last = folded.last, RowBuilder.joins(last, row, tz: view.tz) {
                        folded[folded.count - 1] = RowBuilder.joined(last, row)
                    } else {
                        folded.append(row)
                    }
                }
                let unlimited = ViewParameters(filter: view.filter, limit: .max, tz: view.tz)
                let built = RowBuilder.view(calls: calls, state: example.source.state, parameters: unlimited)
                #expect(folded == built.rows, "\(example.source.name) in \(view)")
            }
        }
    }

    /// The fixture holds each kind of case the clients must get right.
    @Test func theCasesCoverTheRule() {
        var seen: Set<String> = []
        for example in Self.cases {
            let view = example.source.view
            if view.tz > 0 { seen.insert("east of UTC") }
            if view.tz < 0 { seen.insert("west of UTC") }
            if view.filter == .missed { seen.insert("missed filter") }
            if example.initial.hasMore { seen.insert("more beyond the window") }
            var before = example.initial
            var own = example.initial
            for outcome in example.outcomes {
                switch outcome.step {
                case .insert:
                    seen.insert("insert")
                    if outcome.truth.rows.count > before.rows.count + 1 { seen.insert("insert splits a row") }
                case .deleteCalls: seen.insert("delete by another device")
                case .deleteRow(_, let filter, let tz):
                    seen.insert(filter == view.filter && tz == view.tz ? "own delete" : "own delete in another view")
                case .clear: seen.insert("clear")
                }
                let merged = outcome.truth.rows.contains { row in
                    before.rows.filter { $0.callIds.contains(where: row.callIds.contains) }.count > 1
                }
                if merged { seen.insert("delete joins rows") }
                if let shown = outcome.shown {
                    let window = Set(own.rows.flatMap(\.callIds))
                    let known = outcome.truth.rows.filter { Set($0.callIds).isSubset(of: window) }
                    if shown.rows.count < known.count { seen.insert("a row kept out of sight") }
                    if outcome.deleted.count > 0 && shown.rows != outcome.truth.rows {
                        seen.insert("shown is not sent")
                    }
                } else {
                    own = outcome.truth
                }
                before = outcome.truth
            }
        }
        #expect(
            seen == [
                "east of UTC", "west of UTC", "missed filter", "more beyond the window", "insert",
                "insert splits a row", "delete by another device", "own delete", "own delete in another view",
                "clear", "delete joins rows", "a row kept out of sight", "shown is not sent",
            ])
    }
}
