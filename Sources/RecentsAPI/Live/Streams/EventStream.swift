import HTTPServer
import RecentsCore
import Synchronization

/// One open `GET …/events` answer: its `EventStreamState` (what it last delivered, whether it may
/// send now) and the HTTP objects it sends through, behind one lock. The rules are the state
/// machine's; this class only applies them atomically and hands out what the caller writes to.
final class EventStream: Sendable {
    private struct Locked {
        var machine: EventStreamState
        /// The HTTP answer, once its head and first event are on their way.
        var http: HTTPStream?
        /// The request, until the answer's head is on its way: a stream may stay open for
        /// minutes, and its request's headers, path and query are no use after the head (16,000
        /// streams would keep megabytes of them).
        var exchange: Exchange?
    }

    let id: UInt64
    let list: String
    /// The view every event shows.
    let view: ViewParameters
    /// Whether a change that leaves the view as it was is sent too (`includeEmpty=true`).
    let includeEmpty: Bool
    /// Whether the request was a HEAD (its answer ends after the head).
    let isHead: Bool
    /// The request's id, for the log.
    let requestId: String
    private let state: Mutex<Locked>

    /// A stream that starts busy: its creator computes the first event.
    init(id: UInt64, request: EventsRequest, exchange: Exchange) {
        self.id = id
        self.list = request.first.list
        self.view = request.first.to
        self.includeEmpty = request.includeEmpty
        self.isHead = exchange.request.method == .HEAD
        self.requestId = exchange.request.requestId
        let machine = EventStreamState(since: request.first.since, from: request.first.from, view: view)
        state = Mutex(Locked(machine: machine, exchange: exchange))
    }

    /// The request, while the answer has not started (nil after: see `Locked.exchange`).
    var exchange: Exchange? { state.withLock { $0.exchange } }

    /// What the busy owner computes next; streams with equal ones share the computation and bytes.
    struct Next: Hashable, Sendable {
        /// From the client's view to the current one.
        var query: TransitionQuery
        /// The `from` the event names.
        var delivered: Int64?
    }

    /// The next computation of this stream.
    var next: Next {
        state.withLock { s in
            Next(
                query: TransitionQuery(list: list, since: s.machine.base, from: s.machine.from, to: view),
                delivered: s.machine.delivered)
        }
    }

    /// The version its client's view shows, nil while the first event is computed or once closed.
    var shownVersion: Int64? { state.withLock { $0.machine.shownVersion } }

    /// The HTTP answer, nil until it started (with the first event, or while the database is away).
    var http: HTTPStream? { state.withLock { $0.http } }

    /// Whether the first event went out: until then an empty transition is sent too.
    var hasSentFirstEvent: Bool { state.withLock { $0.machine.sentFirstEvent } }

    /// Whether a computation or a chunk is in flight (a heartbeat skips the stream meanwhile).
    var isBusy: Bool { state.withLock { $0.machine.phase == .busy } }

    /// Claims the stream for a computation if it is free and behind `head`.
    func claim(head: Int64) -> Bool {
        state.withLock { $0.machine.committed(head: head) }
    }

    /// Claims a free, open stream for a heartbeat chunk.
    func claimForHeartbeat() -> HTTPStream? {
        state.withLock { s in s.machine.heartbeatDue() ? s.http : nil }
    }

    /// Claims a free, started stream for a computation whatever the head (its last one failed
    /// because the database was away).
    func claimToRetry() -> EventStreamState.RetryAction {
        state.withLock { $0.machine.retryDue() }
    }

    /// Frees a busy stream whose computation found the database away until its retry.
    func pause() {
        state.withLock { $0.machine.databaseAway() }
    }

    /// Frees a busy stream, unless its list moved past its version meanwhile: then it stays
    /// claimed and the caller computes again (true).
    ///
    /// The head is read under the stream's lock: the commit hook moves heads before it claims,
    /// so either this sees the new head, or the commit's claim comes after and finds the stream
    /// free. (Reading it before the lock could free the stream on a stale head and miss a write.)
    /// A head forgotten by the bounded `ListHeads` reads as 0: the stream then waits for the next
    /// commit of its list, whose claim carries the committed version itself.
    func release(heads: ListHeads) -> Bool {
        state.withLock { $0.machine.drained(head: heads.version(of: list) ?? 0) }
    }

    /// Records that the client's view is now the one at `version`: sent to it, or (not
    /// `delivered`) equal to the one it has.
    func advance(to version: Int64, delivered: Bool) {
        state.withLock { s in
            if delivered { s.machine.delivered(version) } else { s.machine.unchanged(version) }
        }
    }

    /// Attaches the HTTP answer started for the first event; false when the stream closed meanwhile.
    /// (It is started outside the lock: its handlers may run at once and close the stream.)
    func attach(_ http: HTTPStream) -> Bool {
        state.withLock { s in
            guard s.machine.didStart() else { return false }
            s.http = http
            s.exchange = nil
            return true
        }
    }

    /// Keeps the token of the end of life to cancel it on close; false when the stream already closed.
    func keep(maxAge token: UInt64) -> Bool {
        state.withLock { $0.machine.armed(endTimer: token) }
    }

    /// Ends the stream for good; the first time only, what to do and the HTTP answer to do it on.
    func end(_ reason: EventStreamState.EndReason) -> (EventStreamState.End, HTTPStream?)? {
        state.withLock { s in
            guard let end = s.machine.end(reason) else { return nil }
            s.exchange = nil
            return (end, s.http)
        }
    }
}
