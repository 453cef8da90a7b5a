import RecentsAuth
import RecentsStore
import SystemSupport

/// Everything that reacts to a commit, in one place: the in-memory heads, the deadline timer,
/// parked long-polls and open event streams. It is the store's `CommitObserver`: one explicit
/// subscription carries commits up and the watched lists down (the store holds it weakly, so
/// the store and its consumer form no cycle).
final class LiveUpdates: CommitObserver {
    /// The current version of each list this process knows.
    let heads: ListHeads
    /// Reads that feed `heads` (the read-mark rule).
    let reads: ObservedReads
    /// Long-poll deadlines, stream heartbeats and ends.
    let timer: DeadlineTimer
    /// Parked `transitions?wait=` requests.
    let longPolls: LongPolls
    /// Open `…/events` streams.
    let streams: EventStreams

    /// The live updates of `store`, within `limits`, leaving room out of `maxConnections` for
    /// requests that come and go.
    init(
        store: any ListStore, limits: MemoryLimits, maxConnections: Int, events: EventStreamSettings,
        verifier: JWTVerifier?, logger: Logger, clock: LiveClock = .system
    ) {
        timer = DeadlineTimer(clock: clock)
        heads = ListHeads(maximumLists: limits.listHeads)
        reads = ObservedReads(store: store, heads: heads)
        let room = LiveRoom(limits: limits, maxConnections: maxConnections)
        longPolls = LongPolls(
            reads: reads, timer: timer, maximumWaiters: limits.longPolls, room: room, verifier: verifier)
        streams = EventStreams(
            reads: reads, timer: timer, settings: events, room: room, verifier: verifier, logger: logger)
    }

    /// Heads move first (so reads after an acknowledgement see the write), then streams and
    /// long-polls of the changed lists compute what they send.
    func storeCommitted(_ versions: [String: Int64]) {
        heads.observe(versions)
        streams.refresh(versions)
        longPolls.wake(lists: versions.keys)
    }

    /// The lists parked long-polls and open streams watch, each with the oldest version its
    /// watchers have seen.
    func watchedLists() -> [String: Int64] {
        longPolls.watched().merging(streams.watched(), uniquingKeysWith: min)
    }

    /// Answers every parked long-poll with "nothing to do", ends every stream and stops the timer
    /// (shutdown).
    func shutdown() {
        longPolls.close()
        streams.close()
        timer.stop()
    }
}
