import Synchronization
import SystemSupport

/// Delivers "Delete for everyone" across shards: one thread per instance that reads every shard's
/// outbox (`shard_outbox`, postgresql/0009) in id order, in batches of `batchSize`, applies each
/// entry on its peer's shard as one ordinary write request there (so the peer's list gets its
/// own new version, and its long-polls and streams hear of it as of any write), and then deletes
/// the entries that landed.
///
/// Every instance drains every shard, and nothing is claimed: exactly once in effect comes from
/// the apply, which records the entry's token on the peer's shard in its own transaction
/// (`OutboxTransaction.markApplied`) and applies nothing when the token is there. So two
/// instances draining one entry at once, or a crash between the apply and the entry's deletion,
/// change the peer once.
///
/// When: at once after a write of this instance committed an entry (`wake`), and every
/// `recheckInterval` for entries other instances wrote and did not deliver (one that died, or one
/// whose peer's shard was away). A shard that cannot be read, or a peer's shard whose applies
/// fail, is tried again after a backoff that doubles from `firstBackoff` to `maxBackoff`.
///
/// `@unchecked Sendable` is safe: the mutable fields (`woken`, `stopped`, `backlogs`, `thread`)
/// are read and written only with `condition` locked; the thread's own state lives in `run`.
final class OutboxDrainer: @unchecked Sendable {
    /// Entries read, and applied at once (one group commit on the peer's shard), per round trip.
    static let batchSize = 64
    /// How often every shard's outbox is looked at without a wake-up.
    static let recheckInterval: Duration = .seconds(1)
    static let firstBackoff: Duration = .milliseconds(100)
    static let maxBackoff: Duration = .seconds(5)

    private let condition = ThreadCondition()
    private var woken = Set<Int>()
    private var stopped = false
    private var backlogs: [OutboxBacklog]
    private let stores: [any ListStore]
    private let uris: [String]
    private let names: [String]
    private let follower: PlacementFollower
    private let logger: Logger
    private var thread: JoinableThread?

    /// A drainer of the shards `stores` (opened on `follower`'s shards, in order); not started.
    init(stores: [any ListStore], follower: PlacementFollower, logger: Logger) {
        self.stores = stores
        uris = follower.placement.shards.map(\.uri)
        names = follower.placement.shards.map(\.name)
        self.follower = follower
        self.logger = logger
        backlogs = Array(repeating: OutboxBacklog(), count: stores.count)
    }

    /// Starts the thread.
    func start() {
        let started = startThread(named: "recents-outbox") { [self] in run() }
        condition.withLock { thread = started }
    }

    /// Looks at shard `index`'s outbox now (a write there committed an entry).
    func wake(_ index: Int) {
        condition.withLock {
            woken.insert(index)
            condition.signal()
        }
    }

    /// Shard `index`'s outbox as last read.
    func backlog(_ index: Int) -> OutboxBacklog {
        condition.withLock { backlogs[index] }
    }

    /// Ends the thread (after the batch it is applying) and waits for it; idempotent.
    func stop() {
        let running: JoinableThread? = condition.withLock {
            stopped = true
            condition.signal()
            defer { thread = nil }
            return thread
        }
        if let running, !isStoreThread { running.join() }
    }

    /// One pass over the outboxes of `shards` (by index) on the caller's thread, on connections of
    /// its own, with no backoff (tests, which must not wait for the thread's next look).
    /// - Throws: `PGError` when a shard's outbox cannot be read.
    func drainNow(_ shards: [Int]? = nil) throws {
        var peers = Array(repeating: Backoff(), count: stores.count)
        for index in shards ?? Array(stores.indices) {
            let connection = try PGConnection(uri: uris[index])
            while try drain(index, on: connection, peers: &peers) {}
        }
    }

    /// The thread: waits for a wake-up or the next look, then drains the shards due.
    private func run() {
        var connections: [PGConnection?] = Array(repeating: nil, count: stores.count)
        var sources = Array(repeating: Backoff(), count: stores.count)
        var peers = Array(repeating: Backoff(), count: stores.count)
        var nextLook: UInt64 = 0
        while true {
            let now = SystemClock.monotonicNanoseconds()
            let earliest = sources.compactMap { $0.notBefore > now ? $0.notBefore : nil }.min() ?? UInt64.max
            let (due, stopping): ([Int], Bool) = condition.withLock {
                let deadline = min(nextLook, earliest)
                while !stopped && woken.isEmpty && SystemClock.monotonicNanoseconds() < deadline {
                    _ = condition.wait(untilMonotonicNanoseconds: deadline)
                }
                let due = woken
                woken.removeAll()
                return (Array(due), stopped)
            }
            if stopping { return }
            var shards = Set(due)
            let looked = SystemClock.monotonicNanoseconds()
            if looked >= nextLook {
                shards.formUnion(stores.indices)
                nextLook = looked + SystemClock.nanoseconds(Self.recheckInterval)
            }
            for index in shards.sorted() where sources[index].notBefore <= looked {
                do {
                    let connection = try connections[index] ?? PGConnection(uri: uris[index])
                    connections[index] = connection
                    while try drain(index, on: connection, peers: &peers) {}
                    sources[index].succeeded()
                } catch {
                    // The next look opens a fresh connection, after the shard's backoff.
                    connections[index] = nil
                    if sources[index].failed() {
                        logger.warn("cannot read a shard's outbox", [("shard", names[index]), ("error", "\(error)")])
                    }
                }
            }
        }
    }

    /// One batch of shard `index`'s outbox: applies the entries whose peer's shard is not
    /// backing off, deletes those that landed, reads the backlog; whether a full batch landed
    /// (more may wait).
    private func drain(_ index: Int, on connection: PGConnection, peers: inout [Backoff]) throws -> Bool {
        let entries = try PGOutbox.entries(on: connection, limit: Self.batchSize)
        let now = SystemClock.monotonicNanoseconds()
        let ready = entries.map { ($0, follower.shardIndex(of: $0.peer)) }.filter { peers[$0.1].notBefore <= now }
        let landed = apply(ready)
        for (destination, ok) in landed.destinations {
            if ok {
                peers[destination].succeeded()
            } else if peers[destination].failed() {
                logger.warn("cannot apply outbox entries on a shard", [("shard", names[destination])])
            }
        }
        try PGOutbox.remove(landed.ids, on: connection)
        let backlog = try PGOutbox.backlog(on: connection)
        condition.withLock { backlogs[index] = backlog }
        return entries.count == Self.batchSize && landed.ids.count == entries.count
    }

    /// Applies `entries` on their peers' shards at once and waits for every outcome: the ids
    /// that landed, and per peer shard whether all of its applies did.
    private func apply(_ entries: [(OutboxEntry, Int)]) -> (ids: [Int64], destinations: [Int: Bool]) {
        let outcomes = Outcomes(count: entries.count)
        for (slot, (entry, destination)) in entries.enumerated() {
            stores[destination].write({ tx in try Self.apply(entry, tx) }) { outcomes.record(slot, $0) }
        }
        let landed = outcomes.wait()
        var destinations: [Int: Bool] = [:]
        for ((_, destination), ok) in zip(entries, landed) {
            destinations[destination] = (destinations[destination] ?? true) && ok
        }
        return (zip(entries, landed).filter(\.1).map(\.0.0.id), destinations)
    }

    /// The apply on the peer's shard: the entry's token first, then the same rule as a delete for
    /// everyone within one database (`CallDeletion.deletePeerCopies`).
    static func apply(_ entry: OutboxEntry, _ tx: any StoreWriter) throws {
        if WritePlanner.isPlanning(tx) {
            // Planning only learns which list to lock.
            return try CallDeletion.deletePeerCopies(entry.callIds, peer: entry.peer, caller: entry.caller, tx: tx)
        }
        guard let outbox = tx as? OutboxTransaction else {
            throw StoreError.engine("outbox entries apply only on a PostgreSQL shard")
        }
        guard try outbox.markApplied(token: entry.token, to: entry.peer) else { return }
        try CallDeletion.deletePeerCopies(entry.callIds, peer: entry.peer, caller: entry.caller, tx: tx)
    }
}

/// Whether a write request put an entry in its shard's outbox: set by its body, read by its
/// completion (both on the shard's writer thread), which then wakes the drainer.
final class EnqueuedFlag: Sendable {
    let value = Atomic(false)
}

/// When a shard may be tried again: not before `notBefore`, the delay doubling per failure.
private struct Backoff {
    var notBefore: UInt64 = 0
    var delay = OutboxDrainer.firstBackoff

    mutating func succeeded() {
        notBefore = 0
        delay = OutboxDrainer.firstBackoff
    }

    /// Pushes the next try back; whether this is the first failure in a row (worth a log line).
    mutating func failed() -> Bool {
        let first = delay == OutboxDrainer.firstBackoff
        notBefore = SystemClock.monotonicNanoseconds() + SystemClock.nanoseconds(delay)
        delay = min(delay * 2, OutboxDrainer.maxBackoff)
        return first
    }
}

/// The outcomes of a batch of applies, filled in by the writers' completions.
private final class Outcomes: Sendable {
    private let landed: Mutex<[Bool]>
    private let latch: ThreadLatch

    init(count: Int) {
        landed = Mutex(Array(repeating: false, count: count))
        latch = ThreadLatch(count: count)
    }

    func record<T>(_ slot: Int, _ result: Result<WriteOutcome<T>, any Error>) {
        if case .success = result { landed.withLock { $0[slot] = true } }
        latch.countDown()
    }

    /// Blocks until every apply completed; whether each landed.
    func wait() -> [Bool] {
        latch.wait()
        return landed.withLock { $0 }
    }
}
