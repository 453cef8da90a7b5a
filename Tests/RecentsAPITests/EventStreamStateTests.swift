import RecentsCore
import Testing

@testable import RecentsAPI

/// Every transition of an event stream's life, on the value alone: no store, no socket, no timer.
@Suite struct EventStreamStateTests {
    static let all = ViewParameters(filter: .all, limit: 50, tz: 0)
    static let missed = ViewParameters(filter: .missed, limit: 50, tz: 0)

    /// A stream opened at `since`, its first event (to `version`) sent and drained at `version`.
    func open(since: Int64? = nil, at version: Int64 = 3) -> EventStreamState {
        var state = EventStreamState(since: since, from: Self.missed, view: Self.all)
        let step1 = state.didStart()
        #expect(step1)
        state.delivered(version)
        let step2 = !state.drained(head: version)
        #expect(step2)
        return state
    }

    @Test func anOpenedStreamIsBusyWithItsFirstEventAndShowsNothingYet() {
        var state = EventStreamState(since: 2, from: Self.missed, view: Self.all)
        #expect(state.phase == .busy && !state.started && !state.sentFirstEvent)
        #expect(state.base == 2 && state.delivered == 2 && state.from == Self.missed)
        #expect(state.shownVersion == nil)
        // Neither a commit, a heartbeat nor a retry claims it while it computes its first event.
        let step3 = !state.committed(head: 9)
        #expect(step3)
        let step4 = !state.heartbeatDue()
        #expect(step4)
        let step5 = state.retryDue() == .drop
        #expect(step5)
        #expect(state.phase == .busy)
    }

    @Test func deliveringMovesTheViewOnAndDrainingFreesTheStream() {
        var state = EventStreamState(since: nil, from: Self.missed, view: Self.all)
        let step6 = state.didStart()
        #expect(step6)
        state.delivered(3)
        #expect(state.base == 3 && state.delivered == 3 && state.from == Self.all && state.sentFirstEvent)
        #expect(state.shownVersion == 3)
        let step7 = !state.drained(head: 3)
        #expect(step7)
        #expect(state.phase == .free)
    }

    @Test func aCommitClaimsAFreeStreamOnlyWhenItIsBehind() {
        var state = open(at: 3)
        let step8 = !state.committed(head: 3)
        #expect(step8)
        #expect(state.phase == .free)
        let step9 = state.committed(head: 4)
        #expect(step9)
        #expect(state.phase == .busy)
        // Busy: the next commit is left to the stream itself when it drains.
        let step10 = !state.committed(head: 5)
        #expect(step10)
        state.delivered(4)
        let step11 = state.drained(head: 5)
        #expect(step11)
        #expect(state.phase == .busy)
    }

    @Test func anUnchangedViewMovesTheBaseButNotWhatWasDelivered() {
        var state = open(at: 3)
        let step12 = state.committed(head: 4)
        #expect(step12)
        state.unchanged(4)
        #expect(state.base == 4 && state.delivered == 3)
        let step13 = !state.drained(head: 4)
        #expect(step13)
        let step14 = !state.committed(head: 4)
        #expect(step14)
    }

    @Test func aHeartbeatClaimsOnlyAFreeStream() {
        var state = open()
        let step15 = state.heartbeatDue()
        #expect(step15)
        #expect(state.phase == .busy)
        let step16 = !state.heartbeatDue()
        #expect(step16)
        let step17 = !state.drained(head: 3)
        #expect(step17)
        let step18 = state.heartbeatDue()
        #expect(step18)
    }

    @Test func theDatabaseAwayFreesTheStreamUntilItsRetry() {
        var state = open(at: 3)
        let step19 = state.committed(head: 4)
        #expect(step19)
        state.databaseAway()
        #expect(state.phase == .free)
        // Heartbeats go on meanwhile; a retry while one is in flight waits for the next.
        let step20 = state.heartbeatDue()
        #expect(step20)
        let step21 = state.retryDue() == .later
        #expect(step21)
        let step22 = !state.drained(head: 3)
        #expect(step22)
        // The database is back: the retry computes whatever the head.
        let step23 = state.retryDue() == .compute
        #expect(step23)
        #expect(state.phase == .busy)
        state.delivered(4)
        let step24 = !state.drained(head: 4)
        #expect(step24)
    }

    @Test func aStreamStartedWhileTheDatabaseIsAwayIsRetriedForItsFirstEvent() {
        var state = EventStreamState(since: nil, from: Self.all, view: Self.all)
        let step25 = state.didStart()
        #expect(step25)
        state.databaseAway()
        #expect(state.shownVersion == nil && !state.sentFirstEvent)
        let step26 = state.retryDue() == .compute
        #expect(step26)
    }

    @Test(
        arguments: [
            (EventStreamState.EndReason.maxAge, nil),
            (.clientGone, nil),
            (.shutdown, nil),
            (.finished, nil),
            (.tokenExpired, .tokenExpired),
            (.lostVersion(current: 7), .resync(currentVersion: 7)),
        ] as [(EventStreamState.EndReason, EventStreamState.LastEvent?)])
    func eachEndSaysItsLastEventOnceAndClaimsNothingAfter(
        reason: EventStreamState.EndReason, last: EventStreamState.LastEvent?
    ) {
        var state = open()
        let step27 = state.armed(endTimer: 42)
        #expect(step27)
        let step28 = state.end(reason) == EventStreamState.End(endTimer: 42, started: true, last: last)
        #expect(step28)
        #expect(state.phase == .closed && state.shownVersion == nil)
        let step29 = state.end(reason) == nil
        #expect(step29)
        let step30 = !state.committed(head: 9) && !state.heartbeatDue() && state.retryDue() == .drop
        #expect(step30)
        let step31 = !state.drained(head: 9)
        #expect(step31)
    }

    @Test func aStreamEndedBeforeItStartedHasNothingToFinishAndRefusesItsHeadAndTimer() {
        var state = EventStreamState(since: nil, from: Self.all, view: Self.all)
        let step32 = state.end(.clientGone) == EventStreamState.End(endTimer: nil, started: false, last: nil)
        #expect(step32)
        let step33 = !state.didStart()
        #expect(step33)
        let step34 = !state.armed(endTimer: 1)
        #expect(step34)
    }
}
