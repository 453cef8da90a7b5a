import RecentsCore

/// The own actions waiting for the server, sent one at a time in the order they were taken.
///
/// Each action is saved in the `ActionStore` before anything is sent and leaves it only when the
/// server has answered it for good, so actions taken offline survive a restart. Each is sent
/// under its own `Idempotency-Key`: after a lost answer or a restart the same request goes again
/// and the server writes it once (a replay answers the first write). A transport failure (or a
/// 5xx, 401, 408, 429) keeps the action at the head until the link returns; a refusal (403, 404,
/// 409, 422, …) ends it, and the optimistic model rolls it back (quietly for a 404: its row is gone).
public actor ActionQueue {
    /// The client actions are sent through.
    public let client: RecentsClient
    private let store: (any ActionStore)?
    /// The actions waiting, oldest first (the head is the one being sent).
    public private(set) var waiting: [ListAction]
    private var sending = false
    private var observers: [Int: AsyncStream<Int>.Continuation] = [:]
    private var nextObserver = 0
    private var wakeUp: CheckedContinuation<Void, Never>?
    private var wakePending = false

    /// A queue over `store` (nil: in memory only), starting with the actions it saved.
    /// - Throws: the store's error when its saved actions cannot be read.
    public init(client: RecentsClient, store: (any ActionStore)? = nil) throws {
        self.client = client
        self.store = store
        self.waiting = try store?.load() ?? []
    }

    /// The number of actions waiting.
    public var waitingCount: Int { waiting.count }

    /// The number of waiting actions now and after every change (one consumer per call).
    public func counts() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        let id = nextObserver
        nextObserver += 1
        observers[id] = continuation
        continuation.yield(waiting.count)
        continuation.onTermination = { _ in Task { await self.stopObserving(id) } }
        return stream
    }

    /// Adds an action at the end and saves the queue; `run` sends it as soon as it can.
    /// - Throws: the store's error; the action is queued in memory anyway, but would not survive a restart.
    public func enqueue(_ action: ListAction) throws {
        waiting.append(action)
        publish()
        signal()
        try store?.save(waiting)
    }

    /// Says the network is back (e.g. from `NWPathMonitor`): `run` retries now instead of after its backoff.
    public func linkReturned() { signal() }

    /// What one `sendNext` did.
    public enum SendResult: Sendable, Hashable {
        /// Nothing waits, or another send is under way.
        case idle
        /// The head action got its final answer and left the queue.
        case answered(ActionOutcome)
        /// The head action could not be sent (no link, a 5xx, …) and stays at the head.
        case stalled(RecentsClientError)
    }

    /// Sends the head action once and returns what came of it.
    public func sendNext() async -> SendResult {
        guard !sending, let action = waiting.first else { return .idle }
        sending = true
        defer { sending = false }
        do {
            let reply = try await client.send(action)
            finish(action)
            return .answered(.landed(action, version: reply.version, epoch: reply.epoch))
        } catch {
            if Self.keepsWaiting(error) { return .stalled(error) }
            finish(action)
            let problem = error.problem ?? Problem(type: "about:blank", title: error.description, status: 0)
            return .answered(.refused(action, problem))
        }
    }

    /// Sends waiting actions in order until none is left or one stalls; returns their outcomes.
    public func flush() async -> (outcomes: [ActionOutcome], stalled: RecentsClientError?) {
        var outcomes: [ActionOutcome] = []
        while true {
            switch await sendNext() {
            case .answered(let outcome): outcomes.append(outcome)
            case .idle: return (outcomes, nil)
            case .stalled(let error): return (outcomes, error)
            }
        }
    }

    /// Sends actions until the task is cancelled, handing each outcome to `deliver` in order:
    /// at once when one is queued or the link returns, else after a jittered backoff (`options`).
    public func run(
        options: FollowOptions = FollowOptions(), deliver: @escaping @Sendable (ActionOutcome) async -> Void
    ) async {
        var failures = 0
        var generator = SystemRandomNumberGenerator()
        while !Task.isCancelled {
            switch await sendNext() {
            case .answered(let outcome):
                failures = 0
                await deliver(outcome)
            case .idle:
                await waitForSignal(seconds: nil)
            case .stalled:
                failures += 1
                await waitForSignal(seconds: options.backoff(afterFailures: failures, using: &generator))
            }
        }
    }

    /// Whether an error leaves the action waiting: no answer, or one that may change on a retry
    /// (a 401 waits for the app's new token). Resending is safe: it carries the same key.
    static func keepsWaiting(_ error: RecentsClientError) -> Bool {
        if error.isTransient || error == .cancelled { return true }
        return [401, 429, 502, 504].contains(error.problem?.status ?? 0)
    }

    // MARK: - Bookkeeping

    /// Removes an answered action and saves the queue.
    private func finish(_ action: ListAction) {
        waiting.removeAll { $0.id == action.id }
        publish()
        // If this save fails, a restart sends the action again under its key, and the server
        // replays its first answer: a failed save costs a request, never a second write.
        try? store?.save(waiting)
    }

    private func publish() {
        for observer in observers.values { observer.yield(waiting.count) }
    }

    private func stopObserving(_ id: Int) { observers[id] = nil }

    /// Wakes `run`, or lets its next wait return at once.
    private func signal() {
        if let wakeUp {
            self.wakeUp = nil
            wakeUp.resume()
        } else {
            wakePending = true
        }
    }

    /// Waits for `signal` (or cancellation), at most `seconds` when given.
    private func waitForSignal(seconds: Double?) async {
        if wakePending || Task.isCancelled {
            wakePending = false
            return
        }
        let timer = seconds.map { seconds in
            Task {
                guard (try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))) != nil else { return }
                self.signal()
            }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { wakeUp = $0 }
        } onCancel: {
            Task { await self.signal() }
        }
        wakePending = false
        timer?.cancel()
    }
}
