import RecentsClient
import RecentsCore
import Testing

/// `OptimisticListModel.tap(onRow:)` and `beginScrolling()`: a tap elsewhere or a scroll closes the open row.
@Suite("OptimisticListModel: the open row")
struct OpenRowTests {
    @Test func aTapOnAnotherRowOrTheEmptyAreaClosesTheOpenRowAndNothingElse() throws {
        for tapped in ["c", nil] as [String?] {
            var model = try OptimisticListModelTests().abc()
            _ = model.perform(.reveal(rowId: "b", revealed: true), id: "open")
            let tap = model.tap(onRow: tapped, id: "close")
            let closed = try #require(tap, "tap on \(tapped ?? "the empty area")")
            expectValid(closed.update, model)
            #expect(closed.action.intent == .reveal(rowId: "b", revealed: false) && closed.action.id == "close")
            #expect(closed.update.reloads == [1] && model.revealedRowId == nil)
            // The tapped row did not open: the only actions are the open and the close.
            #expect(model.pending.map(\.action.id) == ["open", "close"] && !model.rows[2].revealed)
        }
    }

    @Test func aTapOnTheOpenRowOrWithNoRowOpenIsTheAppsToHandle() throws {
        var model = try OptimisticListModelTests().abc()
        #expect(model.tap(onRow: "a") == nil && model.tap(onRow: nil) == nil && model.pending.isEmpty)
        _ = model.perform(.reveal(rowId: "b", revealed: true))
        #expect(model.tap(onRow: "b") == nil && model.revealedRowId == "b" && model.pending.count == 1)
    }

    @Test func aScrollClosesTheOpenRow() throws {
        var model = try OptimisticListModelTests().abc()
        #expect(model.beginScrolling() == nil)
        // Open on the server (another device), not by this model: a scroll closes it all the same.
        _ = try model.apply(
            event(from: 2, to: 3, updates: [(0, 0, flagged(rowA, revealed: true))], count: 3, revealedRowId: "a"))
        let scroll = model.beginScrolling(id: "k")
        let closed = try #require(scroll)
        expectValid(closed.update, model)
        #expect(closed.action.intent == .reveal(rowId: "a", revealed: false) && model.revealedRowId == nil)
        #expect(model.beginScrolling() == nil, "nothing is open any more")
    }
}
