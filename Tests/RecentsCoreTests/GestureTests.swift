import Foundation
import Testing

@testable import RecentsCore

/// One release: inputs and the expected outcome and settle offset.
struct GestureCase: Sendable, CustomTestStringConvertible {
    var name: String
    var gesture: Gesture
    var optionCount = 1
    var outcome: GestureOutcome
    var offset: Double

    var testDescription: String { name }
}

@Suite struct GestureTests {
    // One option of 74: W = 74, select threshold W + 74 = 148.
    static let cases: [GestureCase] = [
        GestureCase(
            name: "slow, from closed, moved left: open",
            gesture: Gesture(initialOffset: 0, offset: -10, velocity: 0), outcome: .open, offset: -74),
        GestureCase(
            name: "slow, from closed, not moved: closed",
            gesture: Gesture(initialOffset: 0, offset: 0, velocity: 0), outcome: .closed, offset: 0),
        GestureCase(
            name: "slow, from closed, moved right: closed",
            gesture: Gesture(initialOffset: 0, offset: 10, velocity: 0), outcome: .closed, offset: 0),
        GestureCase(
            name: "slow, from open, short of W: closed",
            gesture: Gesture(initialOffset: -74, offset: -10, velocity: 0), outcome: .closed, offset: 0),
        GestureCase(
            name: "slow, from open, exactly -W: closed",
            gesture: Gesture(initialOffset: -74, offset: -74, velocity: 0), outcome: .closed, offset: 0),
        GestureCase(
            name: "slow, from open, just past -W: open",
            gesture: Gesture(initialOffset: -74, offset: -74.01, velocity: 0), outcome: .open, offset: -74),
        GestureCase(
            name: "exactly W + button: open, not selected",
            gesture: Gesture(initialOffset: 0, offset: -148, velocity: 0), outcome: .open, offset: -74),
        GestureCase(
            name: "just past W + button: selected",
            gesture: Gesture(initialOffset: 0, offset: -148.01, velocity: 0), outcome: .selected, offset: 0),
        GestureCase(
            name: "velocity -99.99 is slow: from open short of W closes",
            gesture: Gesture(initialOffset: -74, offset: -10, velocity: -99.99), outcome: .closed, offset: 0),
        GestureCase(
            name: "velocity -100 is a fling left: open",
            gesture: Gesture(initialOffset: -74, offset: -10, velocity: -100), outcome: .open, offset: -74),
        GestureCase(
            name: "velocity +100 is a fling right: closed",
            gesture: Gesture(initialOffset: 0, offset: -10, velocity: 100), outcome: .closed, offset: 0),
        GestureCase(
            name: "velocity +99.99 is slow: from closed moved left opens",
            gesture: Gesture(initialOffset: 0, offset: -10, velocity: 99.99), outcome: .open, offset: -74),
        GestureCase(
            name: "slow far pull from open: selected",
            gesture: Gesture(initialOffset: -74, offset: -200, velocity: 99.99), outcome: .selected, offset: 0),
        GestureCase(
            name: "far pull flung right: closed",
            gesture: Gesture(initialOffset: -74, offset: -200, velocity: 100), outcome: .closed, offset: 0),
        GestureCase(
            name: "fling left past the threshold: selected",
            gesture: Gesture(initialOffset: 0, offset: -148.01, velocity: -100), outcome: .selected, offset: 0),
        GestureCase(
            name: "fling left at the threshold: open",
            gesture: Gesture(initialOffset: 0, offset: -148, velocity: -100_000), outcome: .open, offset: -74),
        GestureCase(
            name: "fling left with a positive offset: open",
            gesture: Gesture(initialOffset: 0, offset: 20, velocity: -500), outcome: .open, offset: -74),
        GestureCase(
            name: "two options: W + button = 222 is open",
            gesture: Gesture(initialOffset: 0, offset: -222, velocity: 0), optionCount: 2, outcome: .open,
            offset: -148),
        GestureCase(
            name: "two options: past 222 selects",
            gesture: Gesture(initialOffset: 0, offset: -222.01, velocity: 0), optionCount: 2, outcome: .selected,
            offset: 0),
        GestureCase(
            name: "three options: W + 16 = 238 is open",
            gesture: Gesture(initialOffset: 0, offset: -238, velocity: 0), optionCount: 3, outcome: .open,
            offset: -222),
        GestureCase(
            name: "three options: past 238 selects (the <= 2 rule would need 296)",
            gesture: Gesture(initialOffset: 0, offset: -238.01, velocity: 0), optionCount: 3, outcome: .selected,
            offset: 0),
        GestureCase(
            name: "button width 50: threshold 100 exactly is open",
            gesture: Gesture(initialOffset: 0, offset: -100, velocity: 0, buttonWidth: 50), outcome: .open,
            offset: -50),
        GestureCase(
            name: "button width 50: past 100 selects",
            gesture: Gesture(initialOffset: 0, offset: -100.5, velocity: 0, buttonWidth: 50), outcome: .selected,
            offset: 0),
        GestureCase(
            name: "no options: always closed",
            gesture: Gesture(initialOffset: 0, offset: -500, velocity: -500), optionCount: 0, outcome: .closed,
            offset: 0),
    ]

    @Test(arguments: cases)
    func decide(_ example: GestureCase) {
        let decision = example.gesture.decide(optionCount: example.optionCount)
        #expect(decision.outcome == example.outcome)
        #expect(decision.offset == example.offset)
        let selected = example.outcome == .selected ? example.optionCount - 1 : nil
        #expect(decision.selectedOptionIndex == selected)
    }

    @Test(arguments: [
        (Gesture(initialOffset: 0, offset: 0, velocity: 0), [String]()),
        (Gesture(initialOffset: -100_000, offset: 100_000, velocity: -1e6, buttonWidth: 10_000), []),
        (
            Gesture(initialOffset: .nan, offset: .infinity, velocity: -.infinity, buttonWidth: .nan),
            ["initialOffset", "offset", "velocity", "buttonWidth"]
        ),
        (
            Gesture(initialOffset: 100_000.5, offset: -100_001, velocity: 1_000_001),
            ["initialOffset", "offset", "velocity"]
        ),
        (Gesture(initialOffset: 0, offset: 0, velocity: 0, buttonWidth: 0), ["buttonWidth"]),
        (Gesture(initialOffset: 0, offset: 0, velocity: 0, buttonWidth: -1), ["buttonWidth"]),
        (Gesture(initialOffset: 0, offset: 0, velocity: 0, buttonWidth: 10_000.01), ["buttonWidth"]),
        (Gesture(initialOffset: 0, offset: 0, velocity: 0, buttonWidth: .ulpOfOne), []),
    ])
    func validation(gesture: Gesture, fields: [String]) {
        #expect(gesture.validationErrors().map(\.field) == fields)
    }

    @Test func decodingDefaultsTheButtonWidth() throws {
        let json = Data(#"{"initialOffset":0,"offset":-10,"velocity":-150}"#.utf8)
        let gesture = try JSONDecoder().decode(Gesture.self, from: json)
        #expect(gesture == Gesture(initialOffset: 0, offset: -10, velocity: -150, buttonWidth: 74))
        let round = try JSONDecoder().decode(Gesture.self, from: try JSONEncoder().encode(gesture))
        #expect(round == gesture)
    }
}
