import SystemSupport

/// One thread that runs actions at deadlines, for long-poll `wait` expiry: a heap instead of
/// a timer per request, so 10,000 waiters cost 10,000 small records, not 10,000 timers.
///
/// Most long-polls are answered by a write long before their deadline, so entries are
/// cancellable: a cancelled entry is forgotten at once and its heap slot dropped lazily (the heap
/// is rebuilt when more than half of it is dead), keeping memory proportional to live waiters
/// even when clients re-poll after every write.
///
/// Deadlines are nanoseconds on its `LiveClock`. On the system clock a thread runs the actions;
/// on a `ManualClock` there is no thread: each `advance` of the clock runs what fell due.
final class DeadlineTimer: @unchecked Sendable {
    // @unchecked: every stored property is touched only with `condition` locked, and the thread
    // is the only consumer; `condition` (ThreadCondition) is itself thread-safe.
    private struct Slot {
        var deadline: UInt64
        var token: UInt64
    }

    private let condition = ThreadCondition()
    private var heap: [Slot] = []
    private var actions: [UInt64: @Sendable () -> Void] = [:]
    private var nextToken: UInt64 = 0
    private var stopped = false
    /// The time deadlines are on.
    let clock: LiveClock

    /// A timer on `clock` (the system's unless a test passes a manual one).
    init(clock: LiveClock = .system) {
        self.clock = clock
        if let manual = clock.manual {
            manual.attach { [weak self] in self?.runDue() }
            return
        }
        // The thread keeps the timer alive until `stop()`; the app owns one for its lifetime.
        // Nobody joins it: `stop()` may run on a thread an action waits for, and the thread ends
        // on its own once stopped (the dropped handle detaches it).
        _ = JoinableThread.start(name: "recents-timer") { self.run() }
    }

    /// Nanoseconds now on the timer's clock.
    var now: UInt64 { clock.now }

    /// Actions scheduled and neither run nor cancelled.
    var pendingCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return actions.count
    }

    /// Heap slots held, live or dead (for tests: bounded by twice the live ones plus a little).
    var slotCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return heap.count
    }

    /// Runs `action` on the timer thread at `deadline` (or soon after); returns a token for `cancel`.
    @discardableResult
    func schedule(at deadline: UInt64, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        nextToken += 1
        guard !stopped else { return nextToken }
        actions[nextToken] = action
        push(Slot(deadline: deadline, token: nextToken))
        condition.signal()
        return nextToken
    }

    /// Runs `action` once `delay` has passed; returns a token for `cancel`.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        schedule(at: clock.after(delay), action)
    }

    /// Forgets a scheduled action; harmless when it already ran or was cancelled.
    func cancel(_ token: UInt64) {
        condition.lock()
        defer { condition.unlock() }
        guard actions.removeValue(forKey: token) != nil else { return }
        if heap.count > 1024 && heap.count > 2 * actions.count {
            heap.removeAll { actions[$0.token] == nil }
            for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
        }
    }

    /// Stops the thread; pending actions are dropped (shutdown answers their waiters itself).
    func stop() {
        condition.lock()
        stopped = true
        heap.removeAll()
        actions.removeAll()
        condition.signal()
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while !stopped {
            guard let first = heap.first else {
                condition.wait()
                continue
            }
            if runFirstIfDue(first) { continue }
            let remaining = first.deadline &- clock.now
            let (deadline, overflow) = SystemClock.monotonicNanoseconds().addingReportingOverflow(remaining)
            condition.wait(untilMonotonicNanoseconds: overflow ? .max : deadline)
        }
        condition.unlock()
    }

    /// Runs every action due now on the calling thread (a manual clock's `advance`).
    private func runDue() {
        condition.lock()
        while !stopped, let first = heap.first, runFirstIfDue(first) {}
        condition.unlock()
    }

    /// With `condition` locked: pops `first` and runs its action (unlocked) if it is due; false if not.
    private func runFirstIfDue(_ first: Slot) -> Bool {
        guard first.deadline <= clock.now else { return false }
        let slot = pop()
        guard let action = actions.removeValue(forKey: slot.token) else { return true }
        condition.unlock()
        action()
        condition.lock()
        return true
    }

    private func earlier(_ a: Slot, _ b: Slot) -> Bool {
        a.deadline < b.deadline || (a.deadline == b.deadline && a.token < b.token)
    }

    private func push(_ slot: Slot) {
        heap.append(slot)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard earlier(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func pop() -> Slot {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(from: 0)
        }
        return top
    }

    private func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, earlier(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, earlier(heap[right], heap[smallest]) { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
