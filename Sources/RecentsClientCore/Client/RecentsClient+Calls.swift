import RecentsCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension RecentsClient {
    /// `GET /v1/lists/{list}`: the list's version, epoch, state and call count.
    public func list(_ list: String) async throws(RecentsClientError) -> ListSummary {
        try await send(request("GET", url(["v1", "lists", list])), as: ListSummary.self)
    }

    /// `DELETE /v1/lists/{list}`: forgets the list's calls, state and history (every older `since` becomes 410).
    @discardableResult
    public func deleteList(_ list: String, idempotencyKey: String? = nil) async throws(RecentsClientError) -> WriteReply
    {
        try await send(request("DELETE", url(["v1", "lists", list]), key: idempotencyKey), as: WriteReply.self)
    }

    /// `POST /v1/lists/{list}/calls`: stores 1 to 1000 calls in one version.
    ///
    /// `idempotencyKey` is sent as `Idempotency-Key` so that a retry of the same post (same key)
    /// is recognised by servers that honour it; pass the same key when you retry by hand.
    @discardableResult
    public func postCalls(
        _ calls: [NewCall], to list: String, idempotencyKey: String = UUID().uuidString
    ) async throws(RecentsClientError) -> PostCallsReply {
        struct Body: Encodable { var calls: [NewCall] }
        let url = try url(["v1", "lists", list, "calls"])
        return try await send(
            request("POST", url, body: Self.body(Body(calls: calls)), key: idempotencyKey), as: PostCallsReply.self)
    }

    /// `GET /v1/lists/{list}/calls/{callId}`: one stored call.
    public func call(_ id: String, in list: String) async throws(RecentsClientError) -> Call {
        try await send(request("GET", url(["v1", "lists", list, "calls", id])), as: Call.self)
    }

    /// `DELETE /v1/lists/{list}/calls/{callId}`: deletes one call in a new version.
    @discardableResult
    public func deleteCall(
        _ id: String, from list: String, idempotencyKey: String? = nil
    ) async throws(RecentsClientError) -> WriteReply {
        try await send(
            request("DELETE", url(["v1", "lists", list, "calls", id]), key: idempotencyKey), as: WriteReply.self)
    }

    /// `GET /v1/lists/{list}/rows`: the rows of one view at the current version.
    public func rows(of list: String, view: ViewParameters = .default) async throws(RecentsClientError) -> RowsPage {
        try await send(request("GET", url(["v1", "lists", list, "rows"], query: view.query)), as: RowsPage.self)
    }

    /// `GET /v1/lists/{list}/transitions`: the change from `since` (nil: an `initial` load) to now.
    ///
    /// `fromView` is the view the client shows at `since` (nil: the same as `view`); `wait`
    /// (0...30 s) holds the request until the transition is not empty.
    public func transition(
        of list: String, since: Int? = nil, epoch: String? = nil, view: ViewParameters = .default,
        fromView: ViewParameters? = nil, wait: Int = 0
    ) async throws(RecentsClientError) -> TransitionEvent {
        var query = view.query
        if let since { query.append(("since", String(since))) }
        if let epoch { query.append(("epoch", epoch)) }
        if let fromView, since != nil {
            query += [("fromFilter", fromView.filter.rawValue), ("fromLimit", "\(fromView.limit)")]
            query.append(("fromTz", "\(fromView.tz)"))
        }
        if wait > 0 { query.append(("wait", String(wait))) }
        let url = try url(["v1", "lists", list, "transitions"], query: query)
        // The server holds a long-poll for up to `wait` seconds: leave it time to answer.
        let body = try await exchange(request("GET", url, timeout: Double(wait) + 30))
        do {
            return try TransitionEvent.decoded(body, view: view)
        } catch {
            throw .invalidResponse("\(WireTransition.self): \(error)")
        }
    }
}

extension ViewParameters {
    /// The `filter`, `limit` and `tz` query parameters of the view.
    var query: [(String, String)] { [("filter", filter.rawValue), ("limit", String(limit)), ("tz", String(tz))] }
}
