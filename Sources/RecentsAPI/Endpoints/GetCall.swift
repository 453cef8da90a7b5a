import RecentsJSON

/// `GET /v1/lists/{list}/calls/{callId}`.
enum GetCall {
    static func make(_ service: Service) -> Endpoint {
        Endpoint(.GET, "/v1/lists/{list}/calls/{callId}") { exchange throws(APIError) in
            try ItemRequest(exchange, or: "no such call")
        } answer: { call, exchange in
            service.store.read(in: call.list, { tx in try tx.call(call.id, in: call.list) }) { result in
                switch result {
                case .success(.some(let found)):
                    var json = JSONWriter()
                    json.call(found)
                    exchange.json(200, json.bytes)
                case .success(.none):
                    exchange.fail(.notFound("no call '\(call.id)' in list '\(call.list)'"))
                case .failure(let error):
                    exchange.fail(error)
                }
            }
        }
    }
}
