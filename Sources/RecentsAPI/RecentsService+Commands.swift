import HTTPServer
import RecentsJSON
import RecentsStore

// The one path of the eight write endpoints.
extension RecentsService {
    /// A write endpoint: parses, sheds load, runs `run` on the store's writer (group-committed),
    /// and answers `{"version": N, "epoch": "...", members...}` once the write is durable, with the
    /// new version if this request changed the list and the unchanged one otherwise.
    ///
    /// - Parameters:
    ///   - created: answer 201 (not 200) when the request changed the list.
    ///   - idempotent: honour an `Idempotency-Key`: the answer is recorded with the write, and a
    ///     retry with the same key and body gets it again without writing.
    ///   - members: the reply's members after `version` and `epoch`, if any.
    func command<Request: ListCommandRequest, Value: Sendable>(
        _ method: HTTPMethod, _ pattern: String, created: Bool = false, idempotent: Bool = false,
        parse: @escaping @Sendable (Exchange) throws(APIError) -> Request,
        hint: (@Sendable (Request) -> WriteHint)? = nil,
        run: @escaping @Sendable (Request, any StoreWriter) throws -> ListCommands.Versioned<Value>,
        members: (@Sendable (Value, inout JSONWriter) -> Void)? = nil
    ) -> Endpoint {
        let render = { @Sendable (value: Value, version: Int64, changed: Bool) -> (status: Int, body: [UInt8]) in
            let body = self.writeReply(version: version) { json in
                guard let members else { return }
                json.comma()
                members(value, &json)
            }
            return (created && changed ? 201 : 200, body)
        }
        return Endpoint(
            method, pattern,
            parse: { exchange throws(APIError) in
                (request: try parse(exchange), key: idempotent ? try IdempotencyKey.parse(exchange) : nil)
            }
        ) { parsed, exchange in
            let request = parsed.request
            let hint = hint?(request) ?? WriteHint(lists: [request.list])
            if let key = parsed.key {
                return self.idempotentWrite(exchange, key: key, list: request.list, hint: hint) { tx in
                    let versioned = try run(request, tx)
                    let version = try tx.listInfo(request.list).version
                    return render(versioned.value, version, version != versioned.versionBefore)
                }
            }
            self.write(exchange, hint: hint, { tx in try run(request, tx) }) { outcome in
                let changed = outcome.versions[request.list]
                let reply = render(outcome.value.value, changed ?? outcome.value.versionBefore, changed != nil)
                exchange.json(reply.status, reply.body)
            }
        }
    }

    /// A write under an `Idempotency-Key`: inside one write request, the answer recorded for
    /// `key` in `list` is replayed (same status, same bytes, nothing written) when the body is the
    /// same, refused with 422 when it differs; otherwise `body` runs and its rendered answer is
    /// recorded in the same transaction, so the answer and the write are durable together.
    private func idempotentWrite(
        _ exchange: Exchange, key: String, list: String, hint: WriteHint,
        _ body: @escaping @Sendable (any StoreWriter) throws -> (status: Int, body: [UInt8])
    ) {
        let fingerprint = IdempotentReply.fingerprint(of: exchange.request.body)
        write(
            exchange, hint: hint,
            { tx in
                if let earlier = try tx.idempotentReply(key: key, in: list) {
                    guard earlier.fingerprint == fingerprint else {
                        throw APIError.idempotencyKeyReused(key, list: list)
                    }
                    return (reply: earlier, replayed: true)
                }
                let answer = try body(tx)
                let reply = IdempotentReply(fingerprint: fingerprint, status: answer.status, body: answer.body)
                try tx.recordIdempotentReply(reply, key: key, in: list)
                return (reply: reply, replayed: false)
            }
        ) { outcome in
            // `Idempotent-Replayed` tells a client (and its logs) that this answer is a replay.
            let headers = outcome.value.replayed ? [("Idempotent-Replayed", "true")] : []
            exchange.json(outcome.value.reply.status, outcome.value.reply.body, headers: headers)
        }
    }

    /// Runs a write body on the store's writer and hands the durable outcome to `reply`, unless
    /// too many writes already wait for the disk (503 `overloaded`: each costs memory until its commit).
    func write<T: Sendable>(
        _ exchange: Exchange, hint: WriteHint = WriteHint(), _ body: @escaping @Sendable (any StoreWriter) throws -> T,
        reply: @escaping @Sendable (WriteOutcome<T>) -> Void
    ) {
        let pending = pendingWrites.wrappingAdd(1, ordering: .relaxed).newValue
        guard pending <= maximumPendingWrites else {
            pendingWrites.wrappingSubtract(1, ordering: .relaxed)
            return exchange.fail(.overloaded("\(pending - 1) writes are waiting for the disk; retry shortly"))
        }
        store.write(hint: hint, body) { result in
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
