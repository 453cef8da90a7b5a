import Foundation

/// One thread that runs actions at deadlines, for long-poll `wait` expiry: a heap instead of
/// a timer per request, so 10,000 waiters cost 10,000 small records, not 10,000 timers.
final class DeadlineTimer: @unchecked Sendable {
    // @unchecked: `heap` and `stopped` are only touched with `condition` locked, and the
    // thread is the only consumer; `condition` (NSCondition) is itself thread-safe.
    private struct Item {
        var deadline: ContinuousClock.Instant
        var sequence: UInt64
        var action: @Sendable () -> Void
    }

    private let condition = NSCondition()
    private var heap: [Item] = []
    private var sequence: UInt64 = 0
    private var stopped = false

    init() {
        // The thread keeps the timer alive until `stop()`; the app owns one for its lifetime.
        let thread = Thread { self.run() }
        thread.name = "recents-deadlines"
        thread.start()
    }

    /// Runs `action` on the timer thread at `deadline` (or soon after).
    func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) {
        condition.lock()
        sequence += 1
        push(Item(deadline: deadline, sequence: sequence, action: action))
        condition.signal()
        condition.unlock()
    }

    /// Stops the thread; pending actions are dropped (shutdown answers their waiters itself).
    func stop() {
        condition.lock()
        stopped = true
        heap.removeAll()
        condition.signal()
        condition.unlock()
    }

    private func run() {
        let clock = ContinuousClock()
        condition.lock()
        while !stopped {
            guard let first = heap.first else {
                condition.wait()
                continue
            }
            let now = clock.now
            if first.deadline <= now {
                let item = pop()
                condition.unlock()
                item.action()
                condition.lock()
                continue
            }
            let remaining = now.duration(to: first.deadline)
            let seconds = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) * 1e-18
            _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
        }
        condition.unlock()
    }

    private func earlier(_ a: Item, _ b: Item) -> Bool {
        a.deadline < b.deadline || (a.deadline == b.deadline && a.sequence < b.sequence)
    }

    private func push(_ item: Item) {
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard earlier(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func pop() -> Item {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count, earlier(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count, earlier(heap[right], heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }
}
