import RecentsCore

/// A shard's reader that refuses lists placed on other shards: a body addressed to one list
/// reads that shard's database, where a list placed elsewhere would look empty, not missing.
class ShardReader: StoreReader {
    private let reader: any StoreReader
    /// Throws `CrossShardError` for a list not placed on this shard.
    let check: (String) throws -> Void

    init(_ reader: any StoreReader, check: @escaping (String) throws -> Void) {
        self.reader = reader
        self.check = check
    }

    func listInfo(_ list: String) throws -> ListInfo {
        try check(list)
        return try reader.listInfo(list)
    }

    func call(_ id: String, in list: String) throws -> Call? {
        try check(list)
        return try reader.call(id, in: list)
    }

    func isRetained(_ version: Int64, in list: String) throws -> Bool {
        try check(list)
        return try reader.isRetained(version, in: list)
    }

    func state(of list: String, at version: Int64) throws -> ListState? {
        try check(list)
        return try reader.state(of: list, at: version)
    }

    func calls(in list: String, at version: Int64, filter: CallFilter) throws -> CallSequence {
        try check(list)
        return try reader.calls(in: list, at: version, filter: filter)
    }

    func callIds(in list: String, at version: Int64) throws -> [String] {
        try check(list)
        return try reader.callIds(in: list, at: version)
    }

    func unseenMissed(in list: String, at version: Int64) throws -> Int {
        try check(list)
        return try reader.unseenMissed(in: list, at: version)
    }
}

/// `ShardReader` for a write body: every mutation of a list placed elsewhere throws before it
/// runs, and the throw undoes the request's earlier changes, so nothing of it is written.
///
/// The one exception is "Delete for everyone" reaching a peer's list on another shard: it goes
/// into this shard's outbox in the request's transaction (`OutboxDrainer` applies it there).
final class ShardWriter: ShardReader, StoreWriter {
    private let writer: any StoreWriter
    /// Called when the request put an entry in the outbox (the drainer looks once it commits).
    private let enqueued: () -> Void

    init(_ writer: any StoreWriter, check: @escaping (String) throws -> Void, enqueued: @escaping () -> Void = {}) {
        self.writer = writer
        self.enqueued = enqueued
        super.init(writer, check: check)
    }

    func deletePeerCopies(_ ids: [String], peer: String, caller: String) throws {
        do {
            try check(peer)
        } catch is CrossShardError {
            guard peer != caller, !ids.isEmpty, !WritePlanner.isPlanning(writer) else { return }
            guard let outbox = writer as? OutboxTransaction else { throw CrossShardError(list: caller, other: peer) }
            try outbox.enqueuePeerDeletion(ids, peer: peer, caller: caller)
            enqueued()
            return
        }
        try CallDeletion.deletePeerCopies(ids, peer: peer, caller: caller, tx: self)
    }

    func insertCalls(_ calls: [Call], into list: String) throws {
        try check(list)
        try writer.insertCalls(calls, into: list)
    }

    func deleteCalls(ids: [String], from list: String) throws -> [String] {
        try check(list)
        return try writer.deleteCalls(ids: ids, from: list)
    }

    func setState(_ state: ListState, of list: String) throws {
        try check(list)
        try writer.setState(state, of: list)
    }

    func forgetList(_ list: String) throws {
        try check(list)
        try writer.forgetList(list)
    }

    func clearCalls(of list: String) throws {
        try check(list)
        try writer.clearCalls(of: list)
    }

    func idempotentReply(key: String, in list: String) throws -> IdempotentReply? {
        try check(list)
        return try writer.idempotentReply(key: key, in: list)
    }

    func recordIdempotentReply(_ reply: IdempotentReply, key: String, in list: String) throws {
        try check(list)
        try writer.recordIdempotentReply(reply, key: key, in: list)
    }
}
