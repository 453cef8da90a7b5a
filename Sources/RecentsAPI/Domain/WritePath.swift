import HTTPServer
import RecentsJSON
import RecentsStore
import Synchronization

/// The one path of every write endpoint: parse, shed load, run the body on the store's writer
/// (group-committed), and answer `{"version": N, "epoch": "...", members...}` once the write is
/// durable, with the new version if this request changed the list and the unchanged one otherwise.
final class WritePath: Sendable {
    private let store: any ListStore
    private let epoch: String
    /// Writes handed to the store and not yet answered.
    private let pending = Atomic<Int>(0)
    /// Beyond this many pending writes, new ones get 503 `overloaded` instead of queueing
    /// without bound (each costs memory until its group commit).
    private let maximumPending: Int

    init(store: any ListStore, epoch: String, maximumPending: Int) {
        self.store = store
        self.epoch = epoch
        self.maximumPending = maximumPending
    }

    /// The endpoint that runs `command`.
    func endpoint<Request, Value>(_ command: Command<Request, Value>) -> Endpoint {
        let epoch = epoch
        let render = { @Sendable (value: Value, version: Int64) -> [UInt8] in
            ResponseBodies.writeReply(version: version, epoch: epoch) { json in
                guard let members = command.members else { return }
                json.comma()
                members(value, &json)
                // Members may write nothing for some values (a clear's reply under `return=minimal`).
                json.removeTrailingComma()
            }
        }
        return Endpoint(
            command.method, command.pattern,
            parse: { exchange throws(APIError) in
                (request: try command.parse(exchange), key: try IdempotencyKey.parse(exchange))
            }
        ) { parsed, exchange in
            guard let prefetch = command.prefetch else { return self.run(command, parsed, exchange, render: render) }
            // A failed read only costs the body its shortcut: it reads inside the write instead.
            self.store.read(in: parsed.request.list, { reader in try prefetch(parsed.request, reader) }) { result in
                let request = (try? result.get()) ?? parsed.request
                exchange.responder.onConnectionThread {
                    self.run(command, (request, parsed.key), exchange, render: render)
                }
            }
        }
    }

    /// Runs `command`'s body on the writer, under its key if it has one, and answers.
    private func run<Request, Value>(
        _ command: Command<Request, Value>, _ parsed: (request: Request, key: String?), _ exchange: Exchange,
        render: @escaping @Sendable (Value, Int64) -> [UInt8]
    ) {
        let request = parsed.request
        if let key = parsed.key {
            let fingerprint = IdempotencyKey.fingerprint(exchange, bodyOnly: command.fingerprintsBodyOnly)
            return keyedWrite(command, request, exchange, key: key, fingerprint: fingerprint, render: render)
        }
        write(exchange, in: request.list, { tx in try command.run(request, tx) }) { outcome in
            let changed = outcome.versions[request.list]
            let version = changed ?? outcome.value.versionBefore
            exchange.json(
                command.status(changed: changed != nil), render(outcome.value.value, version),
                headers: command.headers?(request) ?? [])
        }
    }

    /// Runs a write body addressed to `list` on the store's writer (its shard's, when sharded) and
    /// hands the durable outcome to `reply`, unless too many writes already wait for the disk (503
    /// `overloaded`: each costs memory until its commit).
    func write<T: Sendable>(
        _ exchange: Exchange, in list: String, _ body: @escaping @Sendable (any StoreWriter) throws -> T,
        reply: @escaping @Sendable (WriteOutcome<T>) -> Void
    ) {
        let count = pending.wrappingAdd(1, ordering: .relaxed).newValue
        guard count <= maximumPending else {
            pending.wrappingSubtract(1, ordering: .relaxed)
            return exchange.fail(.overloaded("\(count - 1) writes are waiting for the disk; retry shortly"))
        }
        let answer = PendingAnswer(exchange: exchange, reply: reply)
        store.write(in: list, body) { result in
            self.pending.wrappingSubtract(1, ordering: .relaxed)
            // This runs on the store's one writer thread, which every write passes through:
            // building and sending the answer belongs to the connection's own thread.
            answer.exchange.responder.onConnectionThread { answer.send(result) }
        }
    }
}

/// A write's exchange and how to answer it, in one object made on the connection's thread: the
/// writer thread then hands it on with one reference, not a copy of each of the exchange's own.
private final class PendingAnswer<T: Sendable>: Sendable {
    let exchange: Exchange
    let reply: @Sendable (WriteOutcome<T>) -> Void

    init(exchange: Exchange, reply: @escaping @Sendable (WriteOutcome<T>) -> Void) {
        self.exchange = exchange
        self.reply = reply
    }

    func send(_ result: Result<WriteOutcome<T>, any Error>) {
        switch result {
        case .success(let outcome): reply(outcome)
        case .failure(let error): exchange.fail(error)
        }
    }
}

/// One write endpoint's parts: how it parses, what it runs on the writer, what its reply adds.
/// Every write honours an `Idempotency-Key`: the answer is recorded with the write, and a retry
/// with the same key and request gets it again without writing.
struct Command<Request: ListCommandRequest, Value: Sendable>: Sendable {
    let method: HTTPMethod
    let pattern: String
    /// Answer 201 (not 200) when the request changed the list.
    var created = false
    /// Whether a key's retry is recognised by its body alone (`POST …/calls`, whose target is the
    /// list's only: keys recorded before every write took keys stay valid), rather than by its
    /// method, target and body.
    var fingerprintsBodyOnly = false
    /// Every check that needs no database.
    let parse: @Sendable (Exchange) throws(APIError) -> Request
    /// A read before the write, outside the writer, whose result the body may use if the list
    /// did not change meanwhile (it checks): what costs O(n) in a read stays out of the one
    /// writer. Nil: none.
    var prefetch: (@Sendable (Request, any StoreReader) throws -> Request)?
    /// The body, on the store's writer, inside the request's own savepoint.
    let run: @Sendable (Request, any StoreWriter) throws -> Versioned<Value>
    /// The reply's members after `version` and `epoch`, if any.
    var members: (@Sendable (Value, inout JSONWriter) -> Void)?
    /// How its answer is kept under a key when the answer mostly repeats the request; nil keeps
    /// the answer's bytes.
    var recipe: ReplyRecipe<Request, Value>?
    /// Headers the answer carries that the request decides (a replay's come from the retry, which
    /// its fingerprint says is the same request); nil: none.
    var headers: (@Sendable (Request) -> [(String, String)])?

    init(
        _ method: HTTPMethod, _ pattern: String, created: Bool = false, fingerprintsBodyOnly: Bool = false,
        parse: @escaping @Sendable (Exchange) throws(APIError) -> Request,
        run: @escaping @Sendable (Request, any StoreWriter) throws -> Versioned<Value>,
        members: (@Sendable (Value, inout JSONWriter) -> Void)? = nil, recipe: ReplyRecipe<Request, Value>? = nil,
        headers: (@Sendable (Request) -> [(String, String)])? = nil,
        prefetch: (@Sendable (Request, any StoreReader) throws -> Request)? = nil
    ) {
        self.prefetch = prefetch
        self.headers = headers
        self.method = method
        self.pattern = pattern
        self.created = created
        self.fingerprintsBodyOnly = fingerprintsBodyOnly
        self.parse = parse
        self.run = run
        self.members = members
        self.recipe = recipe
    }

    /// The answer's status: 201 for a creating command that changed the list, else 200.
    func status(changed: Bool) -> Int { created && changed ? 201 : 200 }
}
