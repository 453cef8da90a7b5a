import RecentsStore

/// The one way a read that sees a list's version feeds `ListHeads`: take the read mark, read,
/// then observe the version the read saw with that mark. A read may bring a forgotten head back
/// only if no head was evicted since it began (`ListHeads.readMark`), or its snapshot could move
/// a head backwards past an acknowledged commit.
struct ObservedReads: Sendable {
    let store: any ListStore
    let heads: ListHeads

    /// Runs `body` on a store reader, records the version `seen` says it saw of `list` (nil: none,
    /// e.g. the list does not exist), then completes.
    func read<T: Sendable>(
        _ list: String, _ body: @escaping @Sendable (any StoreReader) throws -> T,
        seen: @escaping @Sendable (T) -> Int64?,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let heads = heads
        let mark = heads.readMark
        store.read(in: list, body) { result in
            if case .success(let value) = result, let version = seen(value) {
                heads.observe(list, version: version, readSince: mark)
            }
            completion(result)
        }
    }

    /// `read` for a request: a failure answers `exchange` with its error.
    func read<T: Sendable>(
        _ list: String, answering exchange: Exchange, _ body: @escaping @Sendable (any StoreReader) throws -> T,
        seen: @escaping @Sendable (T) -> Int64?, reply: @escaping @Sendable (T) -> Void
    ) {
        read(list, body, seen: seen) { result in
            switch result {
            case .success(let value): reply(value)
            case .failure(let error): exchange.fail(error)
            }
        }
    }

    /// The transition `query` asks for, read once by whoever needs one: a long-poll, its wake-up,
    /// a stream's next event, the page's first view.
    func transition(
        _ query: TransitionQuery, completion: @escaping @Sendable (Result<TransitionAnswer, any Error>) -> Void
    ) {
        read(query.list, { tx in try ListReads.transition(query, tx: tx) }, seen: \.to, completion: completion)
    }

    /// `transition` for a request: a failure answers `exchange` with its error.
    func transition(
        _ query: TransitionQuery, answering exchange: Exchange, reply: @escaping @Sendable (TransitionAnswer) -> Void
    ) {
        read(
            query.list, answering: exchange, { tx in try ListReads.transition(query, tx: tx) }, seen: \.to, reply: reply
        )
    }

    /// Answers 410 `resync-required`, with the list's current version, when the client names
    /// another epoch than this server's (its versions mean nothing here); true when it did.
    func answeredForeignEpoch(_ clientEpoch: String?, list: String, _ exchange: Exchange) -> Bool {
        let epoch = store.epoch
        guard let clientEpoch, clientEpoch != epoch else { return false }
        read(list, answering: exchange, { tx in try tx.listInfo(list).version }, seen: { $0 }) { version in
            exchange.fail(
                .resyncRequired(
                    "epoch '\(clientEpoch)' is not this server's ('\(epoch)'); reload without since",
                    currentVersion: version))
        }
        return true
    }
}
