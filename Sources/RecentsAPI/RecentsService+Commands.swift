import HTTPServer
import RecentsStore

// The one path of the eight write endpoints.
extension RecentsService {
    /// A write endpoint: parses, sheds load, runs `run` on the store's writer (group-committed),
    /// and answers `{"version": N, "epoch": "...", members...}` once the write is durable, with the
    /// new version if this request changed the list and the unchanged one otherwise.
    ///
    /// - Parameters:
    ///   - created: answer 201 (not 200) when the request changed the list.
    ///   - members: the reply's members after `version` and `epoch`, if any.
    func command<Request: ListCommandRequest, Value: Sendable>(
        _ method: HTTPMethod, _ pattern: String, created: Bool = false,
        parse: @escaping @Sendable (Exchange) throws(APIError) -> Request,
        run: @escaping @Sendable (Request, any StoreWriter) throws -> ListCommands.Versioned<Value>,
        members: (@Sendable (Value, inout JSONWriter) -> Void)? = nil
    ) -> Endpoint {
        Endpoint(method, pattern, parse: parse) { request, exchange in
            self.write(exchange, { tx in try run(request, tx) }) { outcome in
                let changed = outcome.versions[request.list]
                let body = self.writeReply(version: changed ?? outcome.value.versionBefore) { json in
                    guard let members else { return }
                    json.comma()
                    members(outcome.value.value, &json)
                }
                exchange.json(created && changed != nil ? 201 : 200, body)
            }
        }
    }

    /// Runs a write body on the store's writer and hands the durable outcome to `reply`, unless
    /// too many writes already wait for the disk (503 `overloaded`: each costs memory until its commit).
    func write<T: Sendable>(
        _ exchange: Exchange, _ body: @escaping @Sendable (any StoreWriter) throws -> T,
        reply: @escaping @Sendable (WriteOutcome<T>) -> Void
    ) {
        let pending = pendingWrites.wrappingAdd(1, ordering: .relaxed).newValue
        guard pending <= maximumPendingWrites else {
            pendingWrites.wrappingSubtract(1, ordering: .relaxed)
            return exchange.fail(.overloaded("\(pending - 1) writes are waiting for the disk; retry shortly"))
        }
        store.write(body) { result in
            self.pendingWrites.wrappingSubtract(1, ordering: .relaxed)
            switch result {
            case .success(let outcome): reply(outcome)
            case .failure(let error): exchange.fail(error)
            }
        }
    }

    /// `{"version": N, "epoch": "...", ...}`: every write reply starts with the list's version.
    func writeReply(version: Int64, _ members: (inout JSONWriter) -> Void) -> [UInt8] {
        var json = JSONWriter()
        json.raw("{")
        json.key("version")
        json.int(version)
        json.comma()
        json.key("epoch")
        json.string(epoch)
        members(&json)
        json.raw("}")
        return json.bytes
    }
}
