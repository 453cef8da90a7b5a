import RecentsStore

extension WritePath {
    /// What a keyed write answers: bytes recorded before (a replay of an exact answer), or a value
    /// to render on the connection's thread (a first answer, or one rebuilt from its recipe).
    private enum KeyedAnswer<Value: Sendable>: Sendable {
        case recorded(status: Int, body: [UInt8])
        case rendered(value: Value, version: Int64, status: Int)
    }

    /// A write under an `Idempotency-Key`: inside one write request, the answer recorded for `key`
    /// in the request's list is replayed (same status, same bytes, nothing written) when the
    /// request is the same (`fingerprint`), refused with 422 when it differs; otherwise the command
    /// runs and its answer is recorded in the same transaction, so the answer and the write are
    /// durable together. A command with a recipe records that instead of its answer's bytes and
    /// rebuilds the same bytes from it and the retry's request.
    func keyedWrite<Request, Value>(
        _ command: Command<Request, Value>, _ request: Request, _ exchange: Exchange, key: String,
        fingerprint: String, render: @escaping @Sendable (Value, Int64) -> [UInt8]
    ) {
        let list = request.list
        let recipe = command.recipe
        write(exchange, in: list) { tx -> (answer: KeyedAnswer<Value>, replayed: Bool) in
            if let earlier = try tx.idempotentReply(key: key, in: list) {
                guard earlier.fingerprint == fingerprint else { throw APIError.idempotencyKeyReused(key, list: list) }
                guard earlier.form == .recipe else {
                    return (.recorded(status: earlier.status, body: earlier.body), true)
                }
                // The fingerprint says this is the first request's very body, so it rebuilds the first answer.
                guard let recipe, let made = ReplyRecipe<Request, Value>.decode(earlier.body),
                    let value = recipe.rebuild(request, made.kept)
                else { throw APIError.internal() }
                return (.rendered(value: value, version: made.version, status: earlier.status), true)
            }
            let versioned = try command.run(request, tx)
            let version = try tx.listInfo(list).version
            let status = command.status(changed: version != versioned.versionBefore)
            if let recipe {
                let kept = ReplyRecipe<Request, Value>.encode(version: version, recipe.keep(request, versioned.value))
                try tx.recordIdempotentReply(
                    IdempotentReply(fingerprint: fingerprint, status: status, body: kept, form: .recipe), key: key,
                    in: list)
                return (.rendered(value: versioned.value, version: version, status: status), false)
            }
            let body = render(versioned.value, version)
            try tx.recordIdempotentReply(
                IdempotentReply(fingerprint: fingerprint, status: status, body: body), key: key, in: list)
            return (.recorded(status: status, body: body), false)
        } reply: { outcome in
            // `Idempotent-Replayed` tells a client (and its logs) that this answer is a replay.
            let headers =
                (outcome.value.replayed ? [("Idempotent-Replayed", "true")] : []) + (command.headers?(request) ?? [])
            switch outcome.value.answer {
            case .recorded(let status, let body):
                exchange.json(status, body, headers: headers)
            case .rendered(let value, let version, let status):
                exchange.json(status, render(value, version), headers: headers)
            }
        }
    }
}

/// How a command's answer is kept under an `Idempotency-Key` when the answer mostly repeats its
/// request (issue 38): `POST …/calls` answers every call posted, 343 KB for a batch of 1,000, and a
/// keyed retry that changed nothing recorded all of it again. A retry is the same request byte for
/// byte (its fingerprint says so), so only what the request cannot tell is kept (the ids the
/// server made) with the version, and the answer is rebuilt from them and the retry's request by
/// the very code that rendered it: the same bytes.
struct ReplyRecipe<Request: Sendable, Value: Sendable>: Sendable {
    /// What of the answer's value the request cannot tell again: words without spaces.
    let keep: @Sendable (Request, Value) -> [String]
    /// The value again from the (same) request and what was kept; nil when they do not fit.
    let rebuild: @Sendable (Request, [String]) -> Value?

    /// The recorded form: the version, then each kept word, separated by spaces.
    static func encode(version: Int64, _ kept: [String]) -> [UInt8] {
        Array(([String(version)] + kept).joined(separator: " ").utf8)
    }

    /// The version and the kept words of a recorded recipe; nil when it is not one.
    static func decode(_ bytes: [UInt8]) -> (version: Int64, kept: [String])? {
        let words = bytes.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard let first = words.first, let version = Int64(String(decoding: first, as: UTF8.self)) else { return nil }
        return (version, words.dropFirst().map { String(decoding: $0, as: UTF8.self) })
    }
}
