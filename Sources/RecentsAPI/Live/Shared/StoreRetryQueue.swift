import Synchronization

/// Live work set aside while the database is away (a parked long-poll's wake-up, a stream's next
/// event), written once for both: kept by id until the next try, which `StoreRetry.delay` puts
/// on the timer once for all of them, however many are set aside meanwhile.
final class StoreRetryQueue<Element: Sendable>: Sendable {
    private struct State {
        var waiting: [UInt64: Element] = [:]
        /// Whether the next try is on the timer.
        var scheduled = false
        /// Shut down: nothing is set aside any more.
        var closed = false
    }

    private let state = Mutex(State())
    private let timer: DeadlineTimer

    /// A queue whose tries run on `timer`.
    init(timer: DeadlineTimer) {
        self.timer = timer
    }

    /// Elements waiting for the next try.
    var count: Int { state.withLock { $0.waiting.count } }

    /// Sets `elements` aside until the next try, which hands every element waiting then to
    /// `retry`; false (nothing kept) once the queue closed.
    func add(
        _ elements: some Sequence<(UInt64, Element)>,
        retry: @escaping @Sendable ([Element]) -> Void
    ) -> Bool {
        let schedule = state.withLock { state -> Bool? in
            if state.closed { return nil }
            for (id, element) in elements { state.waiting[id] = element }
            defer { state.scheduled = true }
            return !state.scheduled
        }
        guard let schedule else { return false }
        if schedule { timer.schedule(after: StoreRetry.delay()) { retry(self.takeAll()) } }
        return true
    }

    /// Takes one element out (it left, or its wait ran out); nil when it is not waiting here.
    func remove(id: UInt64) -> Element? {
        state.withLock { $0.waiting.removeValue(forKey: id) }
    }

    /// Takes every element out and closes the queue (shutdown).
    func close() -> [Element] {
        state.withLock { state in
            state.closed = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
    }

    private func takeAll() -> [Element] {
        state.withLock { state in
            defer { state = State(closed: state.closed) }
            return Array(state.waiting.values)
        }
    }
}
