/// `GET /v1/lists/{list}/transitions`: the diff from the client's view to the current one, held
/// up to `wait` seconds while there is nothing to do (the long-poll protocol is `LongPolls`).
enum GetTransitions {
    static func make(_ service: Service) -> Endpoint {
        let maximumWait = service.configuration.memory.maxWait
        return Endpoint(.GET, "/v1/lists/{list}/transitions") { exchange throws(APIError) in
            try TransitionsRequest(exchange, maximumWait: maximumWait)
        } answer: { request, exchange in
            let live = service.live
            if live.reads.answeredForeignEpoch(request.epoch, list: request.query.list, exchange) { return }
            live.longPolls.answer(request.query, wait: request.wait, includeEmpty: request.includeEmpty, exchange)
        }
    }
}

/// `GET …/transitions`, validated: what to compute, how long to wait, and the client's epoch.
struct TransitionsRequest: Sendable {
    var query: TransitionQuery
    var wait: Int
    var epoch: String?
    /// Whether a held request is answered by any new version, also one that leaves the view as it was.
    var includeEmpty: Bool

    init(_ exchange: Exchange, maximumWait: Int) throws(APIError) {
        let list = try exchange.list()
        let parameters = try exchange.query.view()
        query = TransitionQuery(
            list: list, since: try exchange.query.since(),
            from: try exchange.query.fromView(defaultingTo: parameters), to: parameters)
        wait = try exchange.query.wait(maximum: maximumWait)
        epoch = exchange.query.epoch()
        includeEmpty = try exchange.query.includeEmpty()
    }
}
