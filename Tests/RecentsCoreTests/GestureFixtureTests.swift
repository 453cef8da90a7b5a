import Foundation
import Testing

@testable import RecentsCore

/// `Tests/Fixtures/gesture-decisions.json`: `Gesture.decide` over a grid of releases around every
/// threshold, which the web page's and the Swift client's own copies of the rule are tested
/// against (node's `Tests/Web/gesture.test.mjs`, `RecentsClientTests`). This test fails when the
/// rule and the fixture disagree, so the three cannot drift apart unnoticed; regenerate the file
/// with `RECENTS_WRITE_FIXTURES=1 swift test --filter GestureFixtureTests` after changing the rule.
@Suite struct GestureFixtureTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/gesture-decisions.json").standardized

    /// Releases at, just inside and just past each threshold of each option count and button width.
    static func releases(rule: GestureRule) -> [(gesture: Gesture, optionCount: Int)] {
        var releases: [(Gesture, Int)] = []
        for optionCount in 0...3 {
            for buttonWidth in [rule.buttonWidth, 50] {
                let width = buttonWidth * Double(max(optionCount, 1))
                let select =
                    optionCount <= rule.buttonMarginMaxOptions ? width + buttonWidth : width + rule.fullSwipeMargin
                let offsets = [0, 10, -10, -width, -width - 0.01, -select, -select - 0.01, -500]
                let velocities = [
                    0, rule.slowVelocity - 0.01, -(rule.slowVelocity - 0.01), rule.slowVelocity,
                    -rule.slowVelocity, -100_000,
                ]
                for initialOffset in [0, -width] {
                    for offset in offsets {
                        for velocity in velocities {
                            releases.append(
                                (
                                    Gesture(
                                        initialOffset: initialOffset, offset: offset, velocity: velocity,
                                        buttonWidth: buttonWidth),
                                    optionCount
                                ))
                        }
                    }
                }
            }
        }
        return releases
    }

    /// The fixture's text: the rule, then one release and its decision per line.
    static func render(rule: GestureRule) -> String {
        func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
        var lines: [String] = []
        for (gesture, optionCount) in releases(rule: rule) {
            let decision = gesture.decide(optionCount: optionCount, rule: rule)
            let selected = decision.selectedOptionIndex.map(String.init) ?? "null"
            lines.append(
                "{\"initialOffset\": \(number(gesture.initialOffset)), \"offset\": \(number(gesture.offset)), "
                    + "\"velocity\": \(number(gesture.velocity)), \"buttonWidth\": \(number(gesture.buttonWidth)), "
                    + "\"optionCount\": \(optionCount), \"outcome\": \"\(decision.outcome.rawValue)\", "
                    + "\"selectedOptionIndex\": \(selected), \"settleOffset\": \(number(decision.offset))}")
        }
        return """
            {"rule": {"buttonWidth": \(number(rule.buttonWidth)), "slowVelocity": \(number(rule.slowVelocity)), \
            "buttonMarginMaxOptions": \(rule.buttonMarginMaxOptions), "fullSwipeMargin": \(number(rule.fullSwipeMargin))},
            "cases": [
            \(lines.joined(separator: ",\n"))
            ]}

            """
    }

    @Test func theFixtureIsWhatTheRuleDecides() throws {
        let expected = Self.render(rule: .telegram)
        if ProcessInfo.processInfo.environment["RECENTS_WRITE_FIXTURES"] == "1" {
            try expected.write(to: Self.fixture, atomically: true, encoding: .utf8)
        }
        let stored = try String(contentsOf: Self.fixture, encoding: .utf8)
        #expect(stored == expected, "regenerate with RECENTS_WRITE_FIXTURES=1 swift test --filter GestureFixtureTests")
    }

    @Test func theFixtureCoversEveryOutcome() throws {
        let outcomes = Set(
            Self.releases(rule: .telegram).map { $0.gesture.decide(optionCount: $0.optionCount).outcome })
        #expect(outcomes == Set(GestureOutcome.allCases))
    }
}
