import RecentsCore
import RecentsStore

/// `POST /v1/lists/{list}/calls`: one call or a batch, all in one version; 201, or 200 when
/// nothing changed. A call id that exists with identical content is an idempotent retry; with
/// other content, 409.
enum PostCalls {
    static func make(_ service: Service) -> Endpoint {
        service.writes.endpoint(
            Command(
                .POST, "/v1/lists/{list}/calls", created: true, fingerprintsBodyOnly: true,
                parse: { exchange throws(APIError) in
                    try ListRequest(exchange, body: try CallInput.postCalls(try exchange.requiredJSONBody()))
                },
                run: { request, tx in
                    try store(request.body, list: request.list, limit: service.configuration.maxCallsPerList, tx: tx)
                },
                members: { calls, json in
                    json.key("calls")
                    json.raw("[")
                    for (position, call) in calls.enumerated() {
                        if position > 0 { json.comma() }
                        json.call(call)
                    }
                    json.raw("]")
                },
                recipe: ReplyRecipe(
                    keep: { request, calls in
                        // The ids the server made, in order: every other member is the request's.
                        zip(request.body, calls).compactMap { (draft: CallDraft, call: Call) -> String? in
                            guard case .none = draft.id else { return nil }
                            return call.id
                        }
                    },
                    rebuild: { request, made in
                        var ids = made.makeIterator()
                        var calls: [Call] = []
                        calls.reserveCapacity(request.body.count)
                        for draft in request.body {
                            guard let id = draft.id ?? ids.next() else { return nil }
                            calls.append(draft.call(id: id))
                        }
                        return ids.next() == nil ? calls : nil
                    })))
    }

    /// Stores the calls; returns the stored or already stored ones, in request order.
    /// - Throws: 409 `list-full`, nothing stored, when the list would hold more than `limit` live
    ///   calls (read from the list's kept count, not by counting its calls).
    static func store(_ drafts: [CallDraft], list: String, limit: Int, tx: any StoreWriter) throws -> Versioned<[Call]>
    {
        let info = try tx.listInfo(list)
        let before = info.version
        var stored: [Call] = []
        var inserted: [String: Call] = [:]
        var fresh: [Call] = []
        stored.reserveCapacity(drafts.count)
        for draft in drafts {
            let id = try draft.id ?? newCallId(list: list, tx: tx, taken: inserted)
            let call = draft.call(id: id)
            let known = try inserted[id] ?? tx.call(id, in: list)
            if let existing = known {
                guard existing == call else {
                    throw APIError.conflict("call '\(id)' already exists in list '\(list)' with different content")
                }
                stored.append(existing)
                continue
            }
            inserted[id] = call
            fresh.append(call)
            stored.append(call)
        }
        guard info.callCount + fresh.count <= limit else {
            throw APIError.listFull(
                "list '\(list)' holds \(info.callCount) calls; \(fresh.count) more would pass its limit of \(limit)")
        }
        if !fresh.isEmpty { try tx.insertCalls(fresh, into: list) }
        return Versioned(value: stored, versionBefore: before)
    }

    /// A server-made id: `c-` and 12 random base-36 characters, not live in the list.
    private static func newCallId(list: String, tx: any StoreWriter, taken: [String: Call]) throws -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
        var generator = SystemRandomNumberGenerator()
        while true {
            var bytes: [UInt8] = Array("c-".utf8)
            for _ in 0..<12 { bytes.append(alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))]) }
            let id = String(decoding: bytes, as: UTF8.self)
            if taken[id] == nil, try tx.call(id, in: list) == nil { return id }
        }
    }
}
