import Foundation
import RecentsClient
import RecentsCore
import Testing

/// A row for pure model tests.
func row(
    _ id: String, revealed: Bool = false, editing: Bool = false, callIds: [String]? = nil,
    timestamp: Int64 = 1_764_460_800,
    options: [RowOption] = RowOption.rowOptions
) -> Row {
    let callIds = callIds ?? [id]
    return Row(
        id: id, peer: Peer(id: "bob", name: "Bob"), count: callIds.count, callIds: callIds, timestamp: timestamp,
        missed: false, incoming: true, outgoing: false, video: false, duration: callIds.count == 1 ? 0 : nil,
        status: .incoming, revealed: revealed, editing: editing, options: options)
}

/// An event from its parts, for pure model tests.
func event(
    from: Int?, to: Int, reason: TransitionReason = .interactiveChanges,
    options: [TransitionOption] = [.animateAlpha, .animateInsertion], deletes: [(Int, String)] = [],
    inserts: [(Int, Row, DirectionHint?)] = [], updates: [(Int, Int, Row)] = [], count: Int, epoch: String = "e1",
    editing: Bool = false, revealedRowId: String? = nil
) -> TransitionEvent {
    let transition = Transition(
        reason: reason, options: options, deletes: deletes.map { .init(index: $0.0, id: $0.1) },
        inserts: inserts.map { .init(index: $0.0, previousIndex: nil, id: $0.1.id, row: $0.1, directionHint: $0.2) },
        updates: updates.map { .init(index: $0.0, previousIndex: $0.1, id: $0.2.id, row: $0.2) }, count: count,
        hasMore: false, editing: editing, revealedRowId: revealedRowId)
    return TransitionEvent(list: "l", epoch: epoch, from: from, to: to, transition: transition, view: .default)
}

@Suite("ListModel")
struct ListModelTests {
    /// The model at version 2 showing a b c (the worked example's shape).
    func abc() throws -> ListModel {
        var model = ListModel()
        let initial = event(
            from: nil, to: 2, reason: .initial, options: [.lowLatency, .synchronous],
            inserts: [(0, row("a"), nil), (1, row("b"), nil), (2, row("c"), nil)], count: 3)
        let update = try model.apply(initial)
        #expect(update.isFullReload && update.insertions == [0, 1, 2] && update.deletions.isEmpty)
        return model
    }

    @Test func incrementalUpdateUsesBeforeAndAfterIndexSpaces() throws {
        var model = try abc()
        // Delete a (0) and c (2), insert n at 0, update b (old 1, new 1): the API.md worked example.
        let update = try model.apply(
            event(
                from: 2, to: 5, deletes: [(0, "a"), (2, "c")], inserts: [(0, row("n"), .down)],
                updates: [(1, 1, row("b", revealed: true))], count: 2))
        #expect(update.deletions == [0, 2])
        #expect(update.insertions == [0])
        #expect(update.reloads == [1])
        #expect(update.itemIdentifiers == ["n", "b"])
        #expect(update.reconfiguredIdentifiers == ["b"])
        #expect(update.deletedIndexPaths() == [IndexPath(indexes: [0, 0]), IndexPath(indexes: [0, 2])])
        #expect(update.reloadedIndexPaths(section: 1) == [IndexPath(indexes: [1, 1])])
        #expect(update.insertedIndexPaths() == [IndexPath(indexes: [0, 0])])
        #expect(BatchUpdateValidator.violations(of: update).isEmpty)
        #expect(model.rowIds == ["n", "b"] && model.rows[1].revealed && model.version == 5)
    }

    @Test func reloadUsesThePreviousIndexNotTheNewOne() throws {
        var model = try abc()
        // Delete a; b moves from old 1 to new 0 and changes: reload at 1 (before), not 0.
        let update = try model.apply(
            event(from: 2, to: 3, deletes: [(0, "a")], updates: [(0, 1, row("b", revealed: true))], count: 2))
        #expect(update.reloads == [1] && update.deletions == [0])
        #expect(BatchUpdateValidator.violations(of: update).isEmpty)
    }

    @Test func initialReplacesWhateverWasShown() throws {
        var model = try abc()
        let update = try model.apply(
            event(from: nil, to: 9, reason: .initial, inserts: [(0, row("z"), nil)], count: 1, epoch: "e2"))
        #expect(update.deletions == [0, 1, 2] && update.insertions == [0] && update.isFullReload)
        #expect(BatchUpdateValidator.violations(of: update).isEmpty)
        #expect(model.rowIds == ["z"] && model.epoch == "e2" && model.version == 9)
    }

    @Test func aTransitionFromAnotherVersionIsRefused() throws {
        var model = try abc()
        #expect(throws: ListModelError.self) { try model.apply(event(from: 1, to: 3, count: 3)) }
        #expect(throws: ListModelError.self) { try model.apply(event(from: 2, to: 3, count: 3, epoch: "other")) }
        #expect(model.version == 2 && model.rowIds == ["a", "b", "c"])
    }

    @Test func anInconsistentTransitionIsRefusedAndLeavesTheModel() throws {
        var model = try abc()
        // Wrong count, out-of-range delete, delete of the wrong id, update landing elsewhere.
        let bad = [
            event(from: 2, to: 3, deletes: [(0, "a")], count: 3),
            event(from: 2, to: 3, deletes: [(5, "a")], count: 2),
            event(from: 2, to: 3, deletes: [(0, "b")], count: 2),
            event(from: 2, to: 3, deletes: [(0, "a")], updates: [(1, 1, row("b"))], count: 2),
            event(from: 2, to: 3, updates: [(7, 1, row("b"))], count: 3),
        ]
        for transition in bad {
            #expect(throws: ListModelError.self) { try model.apply(transition) }
        }
        #expect(model.version == 2 && model.rowIds == ["a", "b", "c"])
    }
}

@Suite("TransitionAnimation")
struct TransitionAnimationTests {
    func animation(_ reason: TransitionReason, _ options: [TransitionOption], hints: [DirectionHint?] = [])
        -> TransitionAnimation
    {
        let inserts = hints.enumerated().map { ($0.offset, row("r\($0.offset)"), $0.element) }
        return TransitionAnimation(
            event(from: 1, to: 2, reason: reason, options: options, inserts: inserts, count: hints.count).transition)
    }

    @Test func initialAndReloadAreNotAnimated() {
        #expect(!animation(.initial, [.lowLatency, .synchronous, .preferSynchronousResourceLoading]).animated)
        #expect(animation(.reload, []) == .none.with(synchronous: false))
    }

    @Test func reloadAnimatedCrossfades() {
        let value = animation(.reloadAnimated, [.lowLatency, .synchronous, .animateCrossfade])
        #expect(value.animated && value.crossfade && value.synchronous)
    }

    @Test func animateInsertionWithDownSlidesFromTheTop() {
        let value = animation(.interactiveChanges, [.animateAlpha, .animateInsertion], hints: [.down, .down, nil])
        #expect(value.animated && !value.crossfade)
        #expect(value.insertionsFromTop == [0, 1])
        #expect(value.insertionStyle(at: 0) == .top && value.insertionStyle(at: 2) == .fade)
        #expect(value.deletion == .fade && value.reload == .fade)
    }

    @Test func changesFromAnEmptyViewAreSynchronousAndUnanimated() {
        let value = animation(.interactiveChanges, [.synchronous, .preferSynchronousResourceLoading], hints: [nil])
        #expect(!value.animated && value.synchronous && value.insertionStyle(at: 0) == .none)
    }
}

extension TransitionAnimation {
    func with(synchronous: Bool) -> TransitionAnimation {
        var copy = self
        copy.synchronous = synchronous
        return copy
    }
}
