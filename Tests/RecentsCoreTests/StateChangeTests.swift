import Testing

@testable import RecentsCore

@Suite struct StateChangeTests {
    @Test(arguments: [
        // (open before, row, revealed, open after, changed)
        (String?.none, "a", true, String?.some("a"), true),
        ("a", "a", true, "a", false),
        ("b", "a", true, "a", true),
        ("a", "a", false, nil, true),
        ("b", "a", false, "b", false),
        (nil, "a", false, nil, false),
    ])
    func reveal(before: String?, rowId: String, revealed: Bool, after: String?, changed: Bool) {
        for editing in [false, true] {
            let change = ListState(editing: editing, revealedRowId: before).revealing(rowId: rowId, revealed: revealed)
            #expect(change.state == ListState(editing: editing, revealedRowId: after))
            #expect(change.changed == changed)
        }
    }

    @Test(arguments: [
        // (editing before, open before, editing, open after, changed)
        (false, String?.none, true, String?.none, true),
        (false, "a", true, "a", true),
        (true, "a", true, "a", false),
        (true, "a", false, nil, true),
        (false, "a", false, nil, true),
        (false, nil, false, nil, false),
        (true, nil, false, nil, true),
    ])
    func editing(before: Bool, open: String?, editing: Bool, after: String?, changed: Bool) {
        let change = ListState(editing: before, revealedRowId: open).settingEditing(editing)
        #expect(change.state == ListState(editing: editing, revealedRowId: after))
        #expect(change.changed == changed)
    }

    @Test(arguments: [
        (String?.some("a"), ["x", "a"], String?.none, true),
        ("a", ["x", "y"], "a", false),
        (nil, ["a"], nil, false),
        ("a", [], "a", false),
    ])
    func removingCalls(open: String?, deleted: [String], after: String?, changed: Bool) {
        let change = ListState(editing: true, revealedRowId: open).removingCalls(deleted)
        #expect(change.state == ListState(editing: true, revealedRowId: after))
        #expect(change.changed == changed)
    }

    @Test(arguments: [
        (GestureOutcome.open, String?.some("b"), String?.some("a"), true),
        (.open, "a", "a", false),
        (.closed, "a", nil, true),
        (.closed, "b", "b", false),
        (.selected, "a", nil, true),
    ])
    func applyingGestureDecisions(outcome: GestureOutcome, open: String?, after: String?, changed: Bool) {
        let decision = GestureDecision(outcome: outcome, selectedOptionIndex: nil, offset: 0)
        let change = ListState(revealedRowId: open).applying(decision, rowId: "a")
        #expect(change.state.revealedRowId == after)
        #expect(change.changed == changed)
    }
}
