import RecentsAuth
import RecentsCore

/// The long-poll protocol of `GET …/transitions?wait=`: compute the transition; if it is empty,
/// park the request in `LongPollHub` until a commit of its list, its deadline, its token's expiry,
/// its client leaving, or shutdown; waiters that share a query share one computation and bytes.
///
/// A parked request rides a database outage through (issue 24): when the computation a commit
/// woke it for finds the database away, it is set aside in the hub and computed again every
/// 100-250 ms (`StoreRetry`) until it can read, its deadline answers it as usual, or it leaves.
final class LongPolls: Sendable {
    private let reads: ObservedReads
    private let hub: LongPollHub
    private let timer: DeadlineTimer
    /// Tells when a token expires (a poll never outlives its token); nil when auth is off.
    private let verifier: JWTVerifier?
    /// The room streams and parked long-polls share.
    private let room: LiveRoom

    init(reads: ObservedReads, timer: DeadlineTimer, maximumWaiters: Int, room: LiveRoom, verifier: JWTVerifier?) {
        self.reads = reads
        self.timer = timer
        self.verifier = verifier
        self.room = room
        hub = LongPollHub(
            heads: reads.heads, timer: timer, maximumWaiters: maximumWaiters, maximumPerList: room.longPollsPerList)
        room.count { [hub] in hub.count }
    }

    /// Requests waiting now (for /metrics).
    var count: Int { hub.count }

    /// Answers `query` now, or (with `wait` > 0 and nothing to do) parks it up to `wait` seconds;
    /// with `includeEmpty`, a new version that leaves the view as it was is something to do.
    func answer(_ query: TransitionQuery, wait: Int, includeEmpty: Bool = false, _ exchange: Exchange) {
        let list = query.list
        let epoch = reads.store.epoch
        let waiting = wait > 0 ? startWaiting(exchange, list: list, seconds: wait) : nil
        reads.transition(query, answering: exchange) { answer in
            let body = EncodedBody(
                ResponseBodies.transition(list: list, from: query.since, answer: answer, epoch: epoch))
            guard Self.waits(answer, since: query.since, includeEmpty: includeEmpty), let waiting else {
                if let waiting { self.timer.cancel(waiting.token) }
                return exchange.json(200, body)
            }
            self.park(
                LongPollHub.Waiter(
                    id: waiting.id, query: query, includeEmpty: includeEmpty, seenVersion: answer.to, idleAnswer: body,
                    deadline: waiting.deadline, endsByExpiry: waiting.expires, timerToken: waiting.token,
                    exchange: exchange))
        }
    }

    /// Whether a request whose transition is `answer` has nothing to be told yet: the view is as
    /// it was, and (for `includeEmpty`) the list is still at `since`.
    private static func waits(_ answer: TransitionAnswer, since: Int64?, includeEmpty: Bool) -> Bool {
        answer.isEmpty && !(includeEmpty && answer.to != since)
    }

    /// Wakes the waiters of each list a commit changed, one computation per shared query.
    func wake(lists: some Sequence<String>) {
        for list in lists {
            let waiters = hub.takeAll(of: list)
            guard !waiters.isEmpty else { continue }
            // Thousands of clients waiting on the same list, version and view share one
            // computation and one encoded body.
            for (_, group) in Dictionary(grouping: waiters, by: \.query) {
                wake(group)
            }
        }
    }

    /// Each list with parked waiters and the oldest version they have seen.
    func watched() -> [String: Int64] { hub.watched() }

    /// Answers every parked request with "nothing to do" and parks no more (shutdown; contract: 200).
    func close() {
        for waiter in hub.close() {
            waiter.exchange.json(200, waiter.idleAnswer)
        }
    }

    /// Arms the disconnect and deadline handlers of a request that may wait.
    ///
    /// They are registered before the first computation, so neither a disconnect nor the
    /// deadline can slip between the check and the parking: both act through the hub, where
    /// removing a waiter that is not parked is harmless.
    private func startWaiting(
        _ exchange: Exchange, list: String, seconds: Int
    ) -> (id: UInt64, deadline: UInt64, expires: Bool, token: UInt64) {
        let id = hub.makeId()
        let lifetime = TokenLifetime(.seconds(seconds), for: exchange, verifier: verifier)
        let deadline = timer.clock.after(lifetime.duration)
        let expires = lifetime.endsByExpiry
        let hub = hub
        let timer = timer
        let token = timer.schedule(at: deadline) { [expires] in
            if let waiter = hub.remove(id: id, list: list) {
                if expires { return waiter.exchange.fail(APIError.tokenExpired) }
                waiter.exchange.json(200, waiter.idleAnswer)
            }
        }
        exchange.responder.onCancel {
            _ = hub.remove(id: id, list: list)
            timer.cancel(token)
        }
        return (id, deadline, expires, token)
    }

    /// Answers a waiter before its deadline, forgetting the deadline.
    private func answer(_ waiter: LongPollHub.Waiter, _ body: EncodedBody) {
        timer.cancel(waiter.timerToken)
        waiter.exchange.json(200, body)
    }

    /// Parks a waiter whose transition is empty, unless it is gone, out of time or already stale.
    /// It must fit the room and its list's cap each time, also when a write woke it and its
    /// transition was still empty: a list's waiters are all taken out when one is woken, so only a
    /// list that filled meanwhile refuses one back, and no path around the bounds remains.
    private func park(_ waiter: LongPollHub.Waiter) {
        if waiter.exchange.responder.isCancelled { return }
        if waiter.deadline <= timer.now {
            guard waiter.endsByExpiry else { return answer(waiter, waiter.idleAnswer) }
            timer.cancel(waiter.timerToken)
            return waiter.exchange.fail(APIError.tokenExpired)
        }
        if let refusal = room.refusal() {
            timer.cancel(waiter.timerToken)
            return waiter.exchange.fail(refusal)
        }
        switch hub.park(waiter) {
        case .parked: break
        case .stale: wake([waiter])
        case .closed: answer(waiter, waiter.idleAnswer)
        case .full:
            timer.cancel(waiter.timerToken)
            waiter.exchange.fail(
                .overloaded("\(hub.maximumWaiters) long-polls are waiting already; retry, or poll without wait"))
        case .listFull:
            timer.cancel(waiter.timerToken)
            waiter.exchange.fail(
                .listFull(waiter.query.list, kind: "parked long-polls", cap: hub.maximumPerList))
        }
    }

    /// Recomputes the transition of a group of waiters that share one query, once, and answers
    /// all of them with the same bytes; if it is still empty they wait on.
    private func wake(_ group: [LongPollHub.Waiter]) {
        guard let query = group.first?.query else { return }
        let epoch = reads.store.epoch
        reads.transition(query) { result in
            switch result {
            case .success(let answer):
                // One body for the whole group, so each coding is made once however many it answers.
                let body = EncodedBody(
                    ResponseBodies.transition(list: query.list, from: query.since, answer: answer, epoch: epoch))
                for waiter in group {
                    if Self.waits(answer, since: query.since, includeEmpty: waiter.includeEmpty) {
                        self.park(waiter.seeing(answer.to, idleAnswer: body))
                    } else {
                        self.answer(waiter, body)
                    }
                }
            case .failure(let error) where StoreRetry.isWaitable(error):
                self.retryLater(group)
            case .failure(let error):
                for waiter in group {
                    self.timer.cancel(waiter.timerToken)
                    waiter.exchange.fail(error)
                }
            }
        }
    }

    /// Sets aside waiters whose computation found the database away, and computes them again
    /// at the next retry (the hub answers them meanwhile at their deadline or shutdown).
    private func retryLater(_ group: [LongPollHub.Waiter]) {
        let kept = hub.setAside.add(group.lazy.map { ($0.id, $0) }) { waiters in
            for (_, group) in Dictionary(grouping: waiters, by: \.query) { self.wake(group) }
        }
        if !kept {
            for waiter in group { answer(waiter, waiter.idleAnswer) }
        }
    }
}
