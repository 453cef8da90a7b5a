import HTTPServer
import RecentsCore

/// `GET …/transitions`, validated: what to compute, how long to wait, and the client's epoch.
struct TransitionsRequest: Sendable {
    var query: ListReads.TransitionQuery
    var wait: Int
    var epoch: String?

    init(_ exchange: Exchange, maximumWait: Int) throws(APIError) {
        let list = try exchange.list()
        let parameters = try exchange.query.view()
        query = ListReads.TransitionQuery(
            list: list, since: try exchange.query.since(),
            from: try exchange.query.fromView(defaultingTo: parameters), to: parameters)
        wait = try exchange.query.wait(maximum: maximumWait)
        epoch = exchange.query.epoch()
    }
}

// Contract section 4: prepared transitions and long-polling.
extension RecentsService {
    /// `GET /v1/lists/{list}/transitions`: the diff from the client's view to the current one,
    /// held up to `wait` seconds while there is nothing to do.
    func transitions() -> Endpoint {
        Endpoint(.GET, "/v1/lists/{list}/transitions") { exchange throws(APIError) in
            try TransitionsRequest(exchange, maximumWait: self.maximumWait)
        } answer: { request, exchange in
            self.answer(request, exchange)
        }
    }

    private func answer(_ request: TransitionsRequest, _ exchange: Exchange) {
        let query = request.query
        let list = query.list
        let waiting = request.wait > 0 ? startWaiting(exchange, list: list, seconds: request.wait) : nil
        if answeredForeignEpoch(request.epoch, list: list, exchange) {
            if let waiting { timer.cancel(waiting.token) }
            return
        }
        let epoch = epoch
        let mark = heads.readMark
        read(exchange, { tx in try ListReads.transition(query, tx: tx) }) { answer in
            self.heads.observe(list, version: answer.to, readSince: mark)
            let body = ListReads.transitionBody(list: list, from: query.since, answer: answer, epoch: epoch)
            guard answer.transition.isEmpty, let waiting else {
                if let waiting { self.timer.cancel(waiting.token) }
                return exchange.json(200, body)
            }
            self.park(
                LongPollHub.Waiter(
                    id: waiting.id, query: query, seenVersion: answer.to, idleAnswer: body,
                    deadline: waiting.deadline, endsByExpiry: waiting.expires, timerToken: waiting.token,
                    exchange: exchange))
        }
    }

    /// Answers 410 `resync-required`, with the list's current version, when the client names
    /// another epoch than this server's (its versions mean nothing here); true when it did.
    func answeredForeignEpoch(_ clientEpoch: String?, list: String, _ exchange: Exchange) -> Bool {
        let epoch = epoch
        guard let clientEpoch, clientEpoch != epoch else { return false }
        read(exchange, { tx in try tx.listInfo(list).version }) { version in
            exchange.fail(
                .resyncRequired(
                    "epoch '\(clientEpoch)' is not this server's ('\(epoch)'); reload without since",
                    currentVersion: version))
        }
        return true
    }

    /// Arms the disconnect and deadline handlers of a request that may wait.
    ///
    /// They are registered before the first computation, so neither a disconnect nor the
    /// deadline can slip between the check and the parking: both act through the hub, where
    /// removing a waiter that is not parked is harmless.
    private func startWaiting(
        _ exchange: Exchange, list: String, seconds: Int
    ) -> (id: UInt64, deadline: ContinuousClock.Instant, expires: Bool, token: UInt64) {
        let id = hub.makeId()
        var deadline = ContinuousClock.now + .seconds(seconds)
        // A poll never outlives its token (issue 10): the wait ends at its expiry, with 401.
        var expires = false
        if let tokenDeadline = exchange.context.tokenDeadline, let verifier {
            let left = tokenDeadline - verifier.now
            if left < Int64(seconds) {
                deadline = ContinuousClock.now + .seconds(max(left, 0))
                expires = true
            }
        }
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
    private func answer(_ waiter: LongPollHub.Waiter, _ body: [UInt8]) {
        timer.cancel(waiter.timerToken)
        waiter.exchange.json(200, body)
    }

    /// Parks a waiter whose transition is empty, unless it is gone, out of time or already stale.
    func park(_ waiter: LongPollHub.Waiter) {
        if waiter.exchange.responder.isCancelled { return }
        if waiter.deadline <= .now {
            guard waiter.endsByExpiry else { return answer(waiter, waiter.idleAnswer) }
            timer.cancel(waiter.timerToken)
            return waiter.exchange.fail(APIError.tokenExpired)
        }
        switch hub.park(waiter) {
        case .parked: break
        case .stale: wake([waiter])
        case .closed: answer(waiter, waiter.idleAnswer)
        case .full:
            timer.cancel(waiter.timerToken)
            waiter.exchange.fail(
                .overloaded("\(hub.maximumWaiters) long-polls are waiting already; retry, or poll without wait"))
        }
    }

    /// Recomputes the transition of a group of waiters that share one query, once, and answers
    /// all of them with the same bytes; if it is still empty they wait on.
    func wake(_ group: [LongPollHub.Waiter]) {
        guard let query = group.first?.query else { return }
        let epoch = epoch
        store.read({ tx in try ListReads.transition(query, tx: tx) }) { result in
            switch result {
            case .success(let answer):
                let body = ListReads.transitionBody(list: query.list, from: query.since, answer: answer, epoch: epoch)
                if answer.transition.isEmpty {
                    for var waiter in group {
                        waiter.seenVersion = answer.to
                        waiter.idleAnswer = body
                        self.park(waiter)
                    }
                } else {
                    for waiter in group { self.answer(waiter, body) }
                }
            case .failure(let error):
                for waiter in group {
                    self.timer.cancel(waiter.timerToken)
                    waiter.exchange.fail(error)
                }
            }
        }
    }
}
