import SystemSupport

/// A FIFO of jobs for a store thread, with a condition variable to sleep on while empty.
///
/// `@unchecked Sendable`: every stored property is read and written only while holding
/// `condition`'s lock, which also orders a job's hand-over from submitter to worker thread.
final class JobQueue<Job: Sendable>: @unchecked Sendable {
    private let condition = ThreadCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var closed = false

    /// Appends a job; false (job dropped) when the queue is closed.
    func submit(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if closed { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// Takes up to `max` jobs in order. When none are queued: waits if `wait`, else returns [].
    /// Returns nil once the queue is closed and drained (the worker should exit).
    func take(max: Int, wait: Bool) -> [Job]? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count {
            if closed { return nil }
            if !wait { return [] }
            condition.wait()
        }
        let end = Swift.min(jobs.count, head + max)
        let taken = Array(jobs[head..<end])
        head = end
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1024 {
            jobs.removeFirst(head)
            head = 0
        }
        return taken
    }

    /// Stops accepting jobs; workers drain what is queued, then `take` returns nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Moves a non-Sendable value to another thread exactly once.
///
/// `@unchecked Sendable`: the sender creates the box, hands it to the thread it starts and never
/// touches the value again; only that thread calls `take()`, so the value is never shared.
final class Transfer<Value>: @unchecked Sendable {
    private var value: Value?

    init(_ value: Value) { self.value = value }

    /// The value; the box is empty afterwards.
    func take() -> Value? {
        defer { value = nil }
        return value
    }
}

/// The `JoinableThread.kind` of the store's own threads.
private let storeThreadKind = "RecentsStore"

/// Whether the caller runs on one of the store's threads (where waiting for a store thread
/// to finish, or for a queued job, would deadlock).
var isStoreThread: Bool { JoinableThread.current?.kind == storeThreadKind }

/// Starts a named thread running `body`; `join()` the handle to wait for it to end.
/// `name` is cut to Linux's 15-byte thread names, so the threads show up by name in `top -H`,
/// `perf` and `/proc/PID/task/*/comm`.
func startThread(named name: String, _ body: @escaping @Sendable () -> Void) -> JoinableThread {
    JoinableThread.start(name: name, kind: storeThreadKind, body)
}

/// Starts a named store thread that takes `value` (not Sendable: made by the caller, used only by
/// the new thread from then on) and runs `body` with it.
func startThread<Value>(
    named name: String, owning value: Value, _ body: @escaping @Sendable (Value) -> Void
) -> JoinableThread {
    let box = Transfer(value)
    return startThread(named: name) {
        guard let value = box.take() else { return }
        body(value)
    }
}
