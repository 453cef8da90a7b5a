import RecentsClient
import RecentsCore
import Testing

/// Rows a, b, c in the API's order (newest first).
let rowA = row("a", timestamp: 1_764_460_803)
let rowB = row("b", callIds: ["b", "b0"], timestamp: 1_764_460_802)
let rowC = row("c", timestamp: 1_764_460_801)

/// `row` with its `revealed` and `editing` flags rewritten.
func flagged(_ row: Row, revealed: Bool = false, editing: Bool = false) -> Row {
    var copy = row
    copy.revealed = revealed
    copy.editing = editing
    return copy
}

/// Applies `body`'s update to `model`, expecting it to pass the validator and to end at the model's rows.
@discardableResult
func expectValid(_ update: BatchUpdate, _ model: OptimisticListModel, sourceLocation: SourceLocation = #_sourceLocation)
    -> BatchUpdate
{
    #expect(BatchUpdateValidator.violations(of: update).isEmpty, sourceLocation: sourceLocation)
    #expect(update.itemIdentifiers == model.rowIds, sourceLocation: sourceLocation)
    return update
}

@Suite("OptimisticListModel")
struct OptimisticListModelTests {
    /// The model at version 2 showing a b c, nothing pending.
    func abc() throws -> OptimisticListModel {
        var model = OptimisticListModel(list: "l")
        let initial = try model.apply(
            event(
                from: nil, to: 2, reason: .initial, options: [.lowLatency, .synchronous],
                inserts: [(0, rowA, nil), (1, rowB, nil), (2, rowC, nil)], count: 3))
        #expect(initial.update.isFullReload && initial.update.insertions == [0, 1, 2])
        return model
    }

    @Test func anOwnRevealShowsAtOnceAndItsConfirmationDoesNotAnimateAgain() throws {
        var model = try abc()
        let performed = model.perform(.reveal(rowId: "b", revealed: true), id: "k1")
        expectValid(performed.update, model)
        #expect(performed.update.reloads == [1] && performed.update.reconfiguredIdentifiers == ["b"])
        #expect(performed.update.animation.animated && performed.update.deletions.isEmpty)
        #expect(model.rows[1].revealed && model.revealedRowId == "b" && !model.server.rows[1].revealed)
        #expect(performed.action.id == "k1" && performed.action.list == "l" && model.pending.count == 1)

        // The server's transition carrying the same change: nothing left to animate.
        let confirmed = try model.apply(
            event(from: 2, to: 3, updates: [(1, 1, flagged(rowB, revealed: true))], count: 3, revealedRowId: "b"))
        expectValid(confirmed.update, model)
        #expect(confirmed.update.isEmpty && confirmed.notices.isEmpty && model.pending.count == 1)
        let retired = model.landed("k1", version: 3, epoch: "e1")
        #expect(retired.update.isEmpty && retired.notices.isEmpty && model.pending.isEmpty)
        #expect(model.rows == model.server.rows)
    }

    @Test func anActionRetiresOnlyWhenTheServerViewReachesItsVersion() throws {
        var model = try abc()
        _ = model.perform(.reveal(rowId: "b", revealed: true), id: "k1")
        let early = model.landed("k1", version: 3, epoch: "e1")
        #expect(early.update.isEmpty && model.pending.count == 1 && model.rows[1].revealed)
        // Version 3 arrives: the action retires, and the screen does not move.
        let arrived = try model.apply(
            event(from: 2, to: 3, updates: [(1, 1, flagged(rowB, revealed: true))], count: 3, revealedRowId: "b"))
        #expect(arrived.update.isEmpty && arrived.notices.isEmpty && model.pending.isEmpty)
    }

    @Test func editAndDoneShowAtOnceOnEveryRow() throws {
        var model = try abc()
        _ = model.perform(.reveal(rowId: "a", revealed: true))
        let edit = model.perform(.setEditing(true))
        expectValid(edit.update, model)
        #expect(edit.update.reloads == [0, 1, 2] && model.editing && model.rows.allSatisfy(\.editing))
        let done = model.perform(.setEditing(false))
        expectValid(done.update, model)
        // Done also closes the open row, as the server does (one reload per row: flags changed).
        #expect(done.update.reloads == [0, 1, 2] && model.revealedRowId == nil && !model.rows[0].revealed)
        #expect(model.pending.count == 3)
    }

    @Test func aDeleteJoinsItsNeighboursAtOnceAndItsConfirmationAnimatesNothing() throws {
        var model = try abc()
        let performed = model.perform(.deleteRow(rowId: "b", scope: .everyone), id: "k1")
        expectValid(performed.update, model)
        // a and c, now neighbours, join into one row with a's id, as the server will group them.
        let merged = row("a", callIds: ["a", "c"], timestamp: 1_764_460_803)
        #expect(performed.update.deletions == [1, 2] && performed.update.reloads == [0])
        #expect(performed.action.callIds == ["b", "b0"] && model.rows == [merged])

        // The server deleted b and joined a and c: the screen shows that already.
        let arrived = try model.apply(
            event(from: 2, to: 3, deletes: [(1, "b"), (2, "c")], updates: [(0, 0, merged)], count: 1))
        expectValid(arrived.update, model)
        #expect(arrived.update.isEmpty && model.rowIds == ["a"])
        #expect(model.landed("k1", version: 3, epoch: "e1").update.isEmpty && model.pending.isEmpty)
    }

    @Test func clearEmptiesTheScreenAtOnce() throws {
        var model = try abc()
        let performed = model.perform(.clear(scope: .me))
        expectValid(performed.update, model)
        #expect(performed.update.deletions == [0, 1, 2] && model.rows.isEmpty && !model.hasMore)
        #expect(Set(performed.action.callIds) == ["a", "b", "b0", "c"])
    }

    @Test func aClearHidesEveryRowUntilItRetiresEvenRowsThatArriveAfterIt() throws {
        var model = try abc()
        _ = model.perform(.clear(scope: .me), id: "k1")
        _ = model.landed("k1", version: 3, epoch: "e1")
        // The server cleared at 3 and a new call arrived at 4; the transition to 3 comes first.
        let cleared = try model.apply(event(from: 2, to: 3, deletes: [(0, "a"), (1, "b"), (2, "c")], count: 0))
        #expect(cleared.update.isEmpty && model.pending.isEmpty)
        let fresh = row("n", timestamp: 1_764_470_000)
        let arrived = try model.apply(event(from: 3, to: 4, inserts: [(0, fresh, nil)], count: 1))
        expectValid(arrived.update, model)
        #expect(arrived.update.insertions == [0] && model.rowIds == ["n"])

        // Had the new call arrived before the clear's answer, it would wait for the clear to retire.
        var early = try abc()
        _ = early.perform(.clear(scope: .me), id: "k1")
        let jumped = try early.apply(
            event(from: 2, to: 4, deletes: [(0, "a"), (1, "b"), (2, "c")], inserts: [(0, fresh, nil)], count: 1))
        #expect(jumped.update.isEmpty && early.rows.isEmpty)
        let retired = early.landed("k1", version: 3, epoch: "e1")
        expectValid(retired.update, early)
        #expect(retired.update.insertions == [0] && early.rowIds == ["n"] && retired.notices.isEmpty)
    }

    @Test func aRefusalRollsBackWithANotice() throws {
        var model = try abc()
        let performed = model.perform(.reveal(rowId: "b", revealed: true))
        let refusal = Problem(type: "insufficient-scope", title: "Forbidden", status: 403)
        let rolledBack = model.handle(.refused(performed.action, refusal))
        expectValid(rolledBack.update, model)
        #expect(rolledBack.update.reloads == [1] && !model.rows[1].revealed && model.pending.isEmpty)
        #expect(rolledBack.notices == [ActionNotice(action: performed.action, reason: .refused(refusal))])
        #expect(rolledBack.notices.first?.message == "Opening the row is not allowed for this list.")
    }

    @Test func anActionWhoseRowIsGoneIsDroppedQuietly() throws {
        var model = try abc()
        let performed = model.perform(.deleteRow(rowId: "b", scope: .me))
        let gone = model.handle(.refused(performed.action, Problem(type: "not-found", title: "Not found", status: 404)))
        expectValid(gone.update, model)
        #expect(gone.update.insertions == [1, 2] && gone.update.reloads == [0] && gone.notices.isEmpty)
        #expect(model.rowIds == ["a", "b", "c"])
    }

    @Test func anotherDevicesLaterChangeWinsWithANotice() throws {
        var model = try abc()
        let performed = model.perform(.reveal(rowId: "b", revealed: true), id: "k1")
        _ = model.landed("k1", version: 3, epoch: "e1")
        // Version 4: another device opened c after our b (version 3).
        let arrived = try model.apply(
            event(from: 2, to: 4, updates: [(2, 2, flagged(rowC, revealed: true))], count: 3, revealedRowId: "c"))
        expectValid(arrived.update, model)
        #expect(arrived.update.reloads == [1, 2] && model.revealedRowId == "c" && model.pending.isEmpty)
        #expect(arrived.notices == [ActionNotice(action: performed.action, reason: .overridden)])
        #expect(arrived.notices.first?.message == "Opening the row was undone on another device.")
    }

    @Test func aLaterOwnActionIsNotAnotherDevicesChange() throws {
        var model = try abc()
        _ = model.perform(.reveal(rowId: "b", revealed: true), id: "k1")
        _ = model.perform(.reveal(rowId: "c", revealed: true), id: "k2")
        _ = model.landed("k1", version: 3, epoch: "e1")
        _ = model.landed("k2", version: 4, epoch: "e1")
        let arrived = try model.apply(
            event(from: 2, to: 4, updates: [(2, 2, flagged(rowC, revealed: true))], count: 3, revealedRowId: "c"))
        #expect(arrived.update.isEmpty && arrived.notices.isEmpty && model.pending.isEmpty)
    }

    @Test func restoredActionsShowWithTheFirstLoad() throws {
        var earlier = try abc()
        let waiting = earlier.perform(.deleteRow(rowId: "b", scope: .me)).action
        var model = OptimisticListModel(list: "l")
        let other = ListAction(id: "x", list: "other", intent: .clear(scope: .me), view: .default)
        #expect(model.restore([waiting, other]).isEmpty && model.pending.map(\.action) == [waiting])
        #expect(model.restore([waiting]).isEmpty && model.pending.count == 1)
        let initial = try model.apply(
            event(
                from: nil, to: 2, reason: .initial, options: [.lowLatency, .synchronous],
                inserts: [(0, rowA, nil), (1, rowB, nil), (2, rowC, nil)], count: 3))
        expectValid(initial.update, model)
        #expect(initial.update.isFullReload && model.rowIds == ["a"] && model.server.rows.count == 3)
    }

    @Test func aTransitionThatDoesNotFitChangesNothing() throws {
        var model = try abc()
        _ = model.perform(.reveal(rowId: "b", revealed: true))
        let before = model
        #expect(throws: ListModelError.self) { try model.apply(event(from: 1, to: 3, count: 3)) }
        #expect(model == before)
    }

    @Test func anAnswerFromAnotherDatabaseRetiresWithoutANotice() throws {
        var model = try abc()
        let performed = model.perform(.reveal(rowId: "b", revealed: true))
        let retired = model.handle(.landed(performed.action, version: 9, epoch: "gone"))
        expectValid(retired.update, model)
        #expect(retired.notices.isEmpty && model.pending.isEmpty && !model.rows[1].revealed)
    }

    @Test func anOutcomeForAnUnknownActionChangesNothing() throws {
        var model = try abc()
        let stranger = ListAction(id: "x", list: "l", intent: .setEditing(true), view: .default)
        #expect(model.handle(.landed(stranger, version: 3, epoch: "e1")).update.isEmpty)
        #expect(model.handle(.refused(stranger, Problem(type: "x", title: "", status: 409))).notices.isEmpty)
    }
}
