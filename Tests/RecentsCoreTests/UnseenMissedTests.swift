import Foundation
import RecentsCore
import Testing

@Suite struct UnseenMissedTests {
    @Test func theMarkMovesOnlyForward() {
        let state = ListState(editing: true, revealedRowId: "a", seenThrough: 100)
        let later = state.markingSeen(through: 150)
        #expect(later.changed && later.state == ListState(editing: true, revealedRowId: "a", seenThrough: 150))
        let earlier = state.markingSeen(through: 50)
        #expect(!earlier.changed && earlier.state == state)
        #expect(!state.markingSeen(through: 100).changed)
        // Two marks in either order end at the later one.
        let one = ListState().markingSeen(through: 30).state.markingSeen(through: 20).state
        let other = ListState().markingSeen(through: 20).state.markingSeen(through: 30).state
        #expect(one.seenThrough == 30 && other.seenThrough == 30)
    }

    @Test func countsMissedCallsNewerThanTheMark() {
        let calls = [
            missed("e", at: 500), makeCall("d", at: 400, .incoming, .busy), missed("c", at: 300),
            makeCall("b", at: 250, .outgoing, .missed), missed("a", at: 200), missed("z", at: 100),
        ]
        #expect(UnseenMissed.count(missedCalls: calls, seenThrough: 0) == 4)
        #expect(UnseenMissed.count(missedCalls: calls, seenThrough: 200) == 2)
        #expect(UnseenMissed.count(missedCalls: calls, seenThrough: 300) == 1)
        #expect(UnseenMissed.count(missedCalls: calls, seenThrough: 500) == 0)
        #expect(UnseenMissed.count(missedCalls: [Call](), seenThrough: 0) == 0)
    }

    /// The walk stops at the first call at or before the mark: a recent mark costs its unseen calls only.
    @Test func stopsAtTheMark() {
        let counter = PullCounter()
        let calls = CountingSequence(
            base: (0..<1000).map { missed("c\($0)", at: Int64(10_000 - $0)) }, counter: counter)
        #expect(UnseenMissed.count(missedCalls: calls, seenThrough: 9_995) == 5)
        #expect(counter.pulled == 6)
    }

    @Test func aStateWithoutAMarkDecodesAsNothingSeen() throws {
        let decoded = try JSONDecoder().decode(
            ListState.self, from: Data(#"{"editing":true,"revealedRowId":null}"#.utf8))
        #expect(decoded == ListState(editing: true))
    }
}
