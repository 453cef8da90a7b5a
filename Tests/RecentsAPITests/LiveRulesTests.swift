import Synchronization
import Testing

@testable import RecentsAPI

/// The rules live updates share, each written once: a live request's end at its token's expiry,
/// and work set aside while the database is away, retried together.
@Suite struct LiveRulesTests {
    @Test func aLiveRequestLastsWhatItAsksUnlessItsTokenExpiresSooner() {
        #expect(TokenLifetime(.seconds(30), timeLeft: nil) == TokenLifetime(.seconds(30), timeLeft: .seconds(60)))
        #expect(!TokenLifetime(.seconds(30), timeLeft: .seconds(30)).endsByExpiry)
        let capped = TokenLifetime(.seconds(30), timeLeft: .milliseconds(1500))
        #expect(capped.duration == .milliseconds(1500) && capped.endsByExpiry)
        // A token accepted within the clock skew after its `exp`: no time left at all.
        let expired = TokenLifetime(.seconds(30), timeLeft: .seconds(-2))
        #expect(expired.duration < .zero && expired.endsByExpiry)
    }

    @Test func workSetAsideIsRetriedTogetherOnceAfterTheDelay() {
        let clock = ManualClock()
        let timer = DeadlineTimer(clock: .manual(clock))
        defer { timer.stop() }
        let queue = StoreRetryQueue<String>(timer: timer)
        let retried = Mutex<[[String]]>([])
        let retry: @Sendable ([String]) -> Void = { batch in retried.withLock { $0.append(batch.sorted()) } }
        #expect(queue.add([(1, "a")], retry: retry))
        #expect(queue.add([(2, "b"), (3, "c")], retry: retry))
        #expect(queue.remove(id: 3) == "c")
        #expect(queue.count == 2 && timer.pendingCount == 1)
        clock.advance(by: .milliseconds(StoreRetry.delayMilliseconds.lowerBound - 1))
        #expect(retried.withLock { $0 }.isEmpty)
        clock.advance(by: .milliseconds(StoreRetry.delayMilliseconds.upperBound))
        #expect(retried.withLock { $0 } == [["a", "b"]])
        #expect(queue.count == 0)
        // Set aside again: a new try is scheduled.
        #expect(queue.add([(4, "d")], retry: retry))
        clock.advance(by: .milliseconds(StoreRetry.delayMilliseconds.upperBound))
        #expect(retried.withLock { $0 } == [["a", "b"], ["d"]])
    }

    @Test func aClosedQueueKeepsNothingAndHandsBackWhatItHeld() {
        let timer = DeadlineTimer(clock: .manual(ManualClock()))
        defer { timer.stop() }
        let queue = StoreRetryQueue<String>(timer: timer)
        #expect(queue.add([(1, "a")]) { _ in })
        #expect(queue.close() == ["a"])
        #expect(!queue.add([(2, "b")]) { _ in })
        #expect(queue.count == 0)
    }
}
