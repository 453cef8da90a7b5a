import Synchronization

/// Parked `transitions?wait=` requests, by list. A waiter costs no thread: it is a record here
/// and a parked connection in the HTTP layer, woken by the write path of its list.
final class LongPollHub: Sendable {
    /// One parked request.
    ///
    /// A class: thousands are woken at once and each passes through the hub's tables, a grouping
    /// and the answering closures; as a struct every such copy retained and released each reference
    /// its request holds (a fifth of the CPU of a 10,000-waiter fan-out went to that).
    final class Waiter: Sendable {
        let id: UInt64
        let query: TransitionQuery
        /// Whether any new version answers it, also one that leaves the view as it was.
        let includeEmpty: Bool
        /// The version whose (empty) transition the client would get now.
        let seenVersion: Int64
        /// The "nothing to do" answer at `seenVersion`, sent when the wait runs out or the server stops.
        let idleAnswer: EncodedBody
        /// When the wait runs out.
        let deadline: UInt64
        /// Whether `deadline` is the request's token expiring (then it ends with 401, not idle).
        let endsByExpiry: Bool
        /// The deadline's entry in the timer, cancelled when the request is answered sooner.
        let timerToken: UInt64
        /// The request being held, to answer through.
        let exchange: Exchange

        init(
            id: UInt64, query: TransitionQuery, includeEmpty: Bool = false, seenVersion: Int64,
            idleAnswer: EncodedBody, deadline: UInt64, endsByExpiry: Bool, timerToken: UInt64,
            exchange: Exchange
        ) {
            self.id = id
            self.query = query
            self.includeEmpty = includeEmpty
            self.seenVersion = seenVersion
            self.idleAnswer = idleAnswer
            self.deadline = deadline
            self.endsByExpiry = endsByExpiry
            self.timerToken = timerToken
            self.exchange = exchange
        }

        /// The same request, waiting on from `version`, whose idle answer is now `idleAnswer`.
        func seeing(_ version: Int64, idleAnswer: EncodedBody) -> Waiter {
            Waiter(
                id: id, query: query, includeEmpty: includeEmpty, seenVersion: version, idleAnswer: idleAnswer,
                deadline: deadline, endsByExpiry: endsByExpiry, timerToken: timerToken, exchange: exchange)
        }
    }

    /// What `park` did.
    enum ParkResult: Sendable, Equatable {
        case parked
        /// A newer version exists than the waiter has seen: compute again instead of waiting.
        case stale
        /// The server is stopping: answer now.
        case closed
        /// `maximumWaiters` are parked already: answer 503 `overloaded` now.
        case full
        /// The waiter's list has `maximumPerList` parked already: answer 429 now.
        case listFull
    }

    private struct State {
        var byList: [String: [UInt64: Waiter]] = [:]
        var count = 0
        var closed = false
        var nextId: UInt64 = 1
    }

    private let state = Mutex(State())
    private let heads: ListHeads
    /// Woken waiters whose computation found the database away, until their retry: still
    /// waiting (counted, answered at their deadline, on leaving or at shutdown), but not woken by
    /// commits, since what wakes them is the retry.
    let setAside: StoreRetryQueue<Waiter>
    /// Parked requests beyond which new ones are refused. It bounds the lists with waiters too
    /// (each such list has at least one), so the hub's memory is bounded by this alone.
    let maximumWaiters: Int
    /// Parked requests of one list beyond which its new ones are refused.
    let maximumPerList: Int

    /// A hub that checks parking against the versions in `heads` and holds at most `maximumWaiters`,
    /// `maximumPerList` of them for any one list.
    init(heads: ListHeads, timer: DeadlineTimer, maximumWaiters: Int, maximumPerList: Int) {
        self.heads = heads
        setAside = StoreRetryQueue(timer: timer)
        self.maximumWaiters = maximumWaiters
        self.maximumPerList = maximumPerList
    }

    /// Requests waiting now (for /metrics).
    var count: Int { state.withLock { $0.count } + setAside.count }

    /// A fresh waiter id.
    func makeId() -> UInt64 {
        state.withLock { state in
            defer { state.nextId += 1 }
            return state.nextId
        }
    }

    /// Parks `waiter` unless its list already moved past `seenVersion`.
    ///
    /// The check and the insertion happen under the hub's lock, and the commit hook updates
    /// `heads` before it takes that lock to wake waiters: so a write that lands between the
    /// caller's read and this call is either seen here (`stale`) or wakes the waiter. None is missed.
    func park(_ waiter: Waiter) -> ParkResult {
        state.withLock { state in
            if state.closed { return .closed }
            // A head evicted (ListHeads' bound) between a commit and this check hides that commit:
            // the waiter then gets its answer at its deadline instead, late but not lost.
            if (heads.version(of: waiter.query.list) ?? 0) > waiter.seenVersion { return .stale }
            if state.count + setAside.count >= maximumWaiters { return .full }
            let list = waiter.query.list
            if (state.byList[list]?.count ?? 0) >= maximumPerList { return .listFull }
            if state.byList[list, default: [:]].updateValue(waiter, forKey: waiter.id) == nil {
                state.count += 1
            }
            return .parked
        }
    }

    /// Each list with parked waiters and the oldest version they have seen (the store's re-check).
    func watched() -> [String: Int64] {
        state.withLock { state in state.byList.mapValues { $0.values.lazy.map(\.seenVersion).min() ?? 0 } }
    }

    /// Takes every waiter of `list` out of the hub (a write landed).
    func takeAll(of list: String) -> [Waiter] {
        state.withLock { state in
            guard let waiters = state.byList.removeValue(forKey: list) else { return [] }
            state.count -= waiters.count
            return Array(waiters.values)
        }
    }

    /// Takes one waiter out (its client left, or its wait ran out); nil when it is no longer parked.
    func remove(id: UInt64, list: String) -> Waiter? {
        state.withLock { state in
            if let waiter = setAside.remove(id: id) { return waiter }
            guard let waiter = state.byList[list]?.removeValue(forKey: id) else { return nil }
            state.count -= 1
            if state.byList[list]?.isEmpty == true { state.byList[list] = nil }
            return waiter
        }
    }

    /// Stops parking and takes every waiter out, for shutdown.
    func close() -> [Waiter] {
        state.withLock { state in
            state.closed = true
            let all = state.byList.values.flatMap(\.values) + setAside.close()
            state.byList = [:]
            state.count = 0
            return all
        }
    }
}
