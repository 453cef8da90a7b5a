import Glibc
import SystemSupport
import Testing

/// A queue guarded by a `ThreadCondition`, the way the store's job queue uses it.
private final class Queue: @unchecked Sendable {
    // @unchecked: `items` and `closed` are touched only with `condition` locked.
    let condition = ThreadCondition()
    var items: [Int] = []
    var closed = false
}

@Suite struct ThreadConditionTests {
    @Test func aWaiterWakesForEveryItemAndForClose() {
        let queue = Queue()
        let received = Queue()
        let consumer = JoinableThread.start(name: "recents-consume") {
            queue.condition.lock()
            while true {
                while queue.items.isEmpty && !queue.closed { queue.condition.wait() }
                if queue.items.isEmpty { break }
                let item = queue.items.removeFirst()
                received.condition.withLock { received.items.append(item) }
            }
            queue.condition.unlock()
        }
        for item in 0..<1000 {
            queue.condition.withLock {
                queue.items.append(item)
                queue.condition.signal()
            }
        }
        queue.condition.withLock {
            queue.closed = true
            queue.condition.broadcast()
        }
        consumer.join()
        #expect(received.condition.withLock { received.items } == Array(0..<1000))
    }

    @Test func aTimedWaitReturnsFalseOncePastItsDeadline() {
        let condition = ThreadCondition()
        condition.lock()
        defer { condition.unlock() }
        let past = SystemClock.monotonicNanoseconds()
        var woken = true
        // A spurious wake-up may return true; the deadline passing must eventually return false.
        for _ in 0..<100 where woken { woken = condition.wait(untilMonotonicNanoseconds: past) }
        #expect(!woken)
    }
}
