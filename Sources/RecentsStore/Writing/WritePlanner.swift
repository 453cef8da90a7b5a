import RecentsCore

/// Learns what a write body will look at by running it once against a transaction that answers
/// every read as if the list were empty and only records what was asked, so PostgreSQL can lock
/// and fetch a whole batch's lists and calls in one round trip before the bodies run for real
/// (`PGWriteBatch.open`). The API never predicts what its bodies read.
///
/// What the record misses (a read that depends on data, such as the peer list of a row found by
/// a scan) costs nothing but a round trip later: a hint never changes what a write does or sees.
enum WritePlanner {
    /// The lists and calls `body` asks about; whatever it throws is ignored.
    static func plan(_ body: (any StoreWriter) throws -> Void) -> WriteHint {
        let recorder = PlanningTransaction()
        _ = try? body(recorder)
        return recorder.hint
    }

    /// Whether `transaction` is a planning run's (tests whose bodies block or count use it).
    static func isPlanning(_ transaction: any StoreWriter) -> Bool { transaction is PlanningTransaction }
}

/// The recording `StoreWriter` of `WritePlanner`: no list exists, no call is found, every
/// mutation is a no-op. Lives for one planning run on the writer thread.
private final class PlanningTransaction: StoreWriter {
    private var lists: [String] = []
    private var calls: [String: [String]] = [:]
    /// Guards against a body that loops on reads (a planning run should be a few calls long).
    private var reads = 0

    var hint: WriteHint { WriteHint(lists: lists, calls: calls) }

    private func note(_ list: String) throws {
        reads += 1
        if reads > 10_000 { throw StoreError.transactionEnded }
        if !lists.contains(list) { lists.append(list) }
    }

    func listInfo(_ list: String) throws -> ListInfo {
        try note(list)
        return ListInfo(
            name: list, version: 0, oldestRetainedVersion: 0, state: ListState(), callCount: 0, exists: false)
    }

    func call(_ id: String, in list: String) throws -> Call? {
        try note(list)
        if calls[list]?.contains(id) != true { calls[list, default: []].append(id) }
        return nil
    }

    func isRetained(_ version: Int64, in list: String) throws -> Bool {
        try note(list)
        return version == 0
    }

    func state(of list: String, at version: Int64) throws -> ListState? {
        try note(list)
        return version == 0 ? ListState() : nil
    }

    func calls(in list: String, at version: Int64, filter: CallFilter) throws -> CallSequence {
        try note(list)
        return CallSequence(NoCalls())
    }

    func callIds(in list: String, at version: Int64) throws -> [String] {
        try note(list)
        return []
    }

    func unseenMissed(in list: String, at version: Int64) throws -> Int {
        try note(list)
        return 0
    }

    func insertCalls(_ calls: [Call], into list: String) throws { try note(list) }

    func deleteCalls(ids: [String], from list: String) throws -> [String] {
        try note(list)
        return []
    }

    func setState(_ state: ListState, of list: String) throws { try note(list) }

    func forgetList(_ list: String) throws { try note(list) }

    func clearCalls(of list: String) throws { try note(list) }

    func idempotentReply(key: String, in list: String) throws -> IdempotentReply? {
        try note(list)
        return nil
    }

    func recordIdempotentReply(_ reply: IdempotentReply, key: String, in list: String) throws { try note(list) }
}

/// A cursor that is already at its end.
private final class NoCalls: CallCursorSource {
    func next() -> Call? { nil }
}
