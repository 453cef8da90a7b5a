import HTTPServer
import RecentsCore
import RecentsJSON
import RecentsStore

// Contract section 1: calls and lists.
extension RecentsService {
    /// `POST /v1/lists/{list}/calls`: one call or a batch, all in one version; 201, or 200 when nothing changed.
    func postCalls() -> Endpoint {
        command(
            .POST, "/v1/lists/{list}/calls", created: true, idempotent: true,
            parse: { exchange throws(APIError) in
                try ListRequest(exchange, body: try RequestBodies.postCalls(try exchange.requiredJSONBody()))
            },
            hint: { request in
                WriteHint(lists: [request.list], calls: [request.list: request.body.compactMap(\.id)])
            },
            run: { request, tx in try ListCommands.postCalls(request.body, list: request.list, tx: tx) },
            members: { calls, json in
                json.key("calls")
                json.raw("[")
                for (position, call) in calls.enumerated() {
                    if position > 0 { json.comma() }
                    json.call(call)
                }
                json.raw("]")
            })
    }

    /// `GET /v1/lists/{list}/calls/{callId}`.
    func getCall() -> Endpoint {
        Endpoint(.GET, "/v1/lists/{list}/calls/{callId}") { exchange throws(APIError) in
            try ItemRequest(exchange, or: "no such call")
        } answer: { call, exchange in
            self.read(exchange, { tx in try tx.call(call.id, in: call.list) }) { found in
                guard let found else { return exchange.fail(.notFound("no call '\(call.id)' in list '\(call.list)'")) }
                var json = JSONWriter()
                json.call(found)
                exchange.json(200, json.bytes)
            }
        }
    }

    /// `DELETE /v1/lists/{list}/calls/{callId}`.
    func deleteCall() -> Endpoint {
        command(
            .DELETE, "/v1/lists/{list}/calls/{callId}",
            parse: { exchange throws(APIError) in try ItemRequest(exchange, or: "no such call") },
            run: { call, tx in try ListCommands.deleteCall(call.id, list: call.list, tx: tx) })
    }

    /// `GET /v1/lists/{list}`.
    func getList() -> Endpoint {
        Endpoint(.GET, "/v1/lists/{list}") { exchange throws(APIError) in
            try ListRequest(exchange)
        } answer: { address, exchange in
            let epoch = self.epoch
            let mark = self.heads.readMark
            self.read(exchange, { tx in try ListReads.list(address.list, epoch: epoch, tx: tx) }) { answer in
                self.heads.observe(address.list, version: answer.version, readSince: mark)
                exchange.json(200, answer.body)
            }
        }
    }

    /// `DELETE /v1/lists/{list}`: forget calls, state and history, as a new version.
    func forgetList() -> Endpoint {
        command(
            .DELETE, "/v1/lists/{list}",
            parse: { exchange throws(APIError) in try ListRequest(exchange) },
            run: { address, tx in try ListCommands.forgetList(address.list, tx: tx) })
    }
}
