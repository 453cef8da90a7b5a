import RecentsCore
import Testing

@testable import RecentsStore

/// The PostgreSQL writer hands a changed list to the pruner only once its retention horizon ran
/// `pruningSlack` versions past its pruned floor (`PGWriterContext.worthPruning`).
@Suite struct PGPruningSlackTests {
    private func row(id: Int64, version: Int64, prunedBelow: Int64, forgottenBelow: Int64 = 0) -> ListRow {
        ListRow(
            id: id, version: version, forgottenBelow: forgottenBelow, prunedBelow: prunedBelow, state: ListState(),
            callCount: 0)
    }

    @Test func theSlackIsASixteenthOfTheWindow() {
        #expect(PGWriterContext.pruningSlack(retainVersions: 1000) == 62)
        #expect(PGWriterContext.pruningSlack(retainVersions: 15) == 0)
        #expect(PGWriterContext.pruningSlack(retainVersions: -1) == 0)
    }

    @Test func aListIsPrunedOnceItsHorizonRanTheSlackPastItsFloor() {
        // Window 160, slack 10: list 1's horizon is 9 past its floor, list 2's 10, list 3's 40.
        let rows = [
            row(id: 1, version: 169, prunedBelow: 0), row(id: 2, version: 210, prunedBelow: 40),
            row(id: 3, version: 300, prunedBelow: 100),
        ]
        #expect(PGWriterContext.worthPruning([1, 2, 3], rows: rows, retain: 160) == [2, 3])
    }

    @Test func aForgetMovesTheHorizonPastTheSlackAtOnce() {
        // Window 1000, slack 62: version 201 alone leaves the horizon at 0; the forget at 200 moves it.
        let rows = [row(id: 7, version: 201, prunedBelow: 0, forgottenBelow: 200)]
        #expect(PGWriterContext.worthPruning([7], rows: rows, retain: 1000) == [7])
    }

    @Test func aWaitingClearIsHandedOverWhateverTheWindow() {
        // Window 1000: version 201's horizon is 0, but the clear at 200 waits for the pruner.
        var cleared = row(id: 7, version: 201, prunedBelow: 0)
        cleared.clearedBelow = 200
        #expect(PGWriterContext.worthPruning([7], rows: [cleared], retain: 1000) == [7])
    }

    @Test func aSmallWindowPrunesEveryChangeAndAnUnknownRowIsKept() {
        #expect(PGWriterContext.worthPruning([1], rows: [row(id: 1, version: 9, prunedBelow: 0)], retain: 8) == [1])
        #expect(PGWriterContext.worthPruning([5], rows: [ListRow](), retain: 1000) == [5])
    }
}
