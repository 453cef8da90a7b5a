import HTTPServer
import RecentsCore
import Synchronization

/// One open `GET …/events` answer: what it last delivered, and whether it may send now.
///
/// Coalesce, never queue: the only thing a stream remembers of the list is `base`, the version
/// its client's view shows. While it is "busy" (a transition is being computed for it, or its
/// last chunk still sits in the socket) a write to the list changes nothing here; when it is
/// free again it compares `base` with the head and, if the list moved, sends one transition
/// from `base` to whatever is current then. So memory per stream does not grow with the write
/// rate, and a slow reader gets fewer, larger events that still compose to the exact view.
final class EventStream: Sendable {
    private struct State {
        /// The HTTP answer, once its head and first event are on their way.
        var http: HTTPStream?
        /// The version the next transition starts from (nil: nothing yet, the first event is
        /// `initial`). Its view is the client's, though it may be newer than `delivered`: a
        /// transition that would change nothing moves it on silently, so a stream whose view
        /// stays still does not fall out of the retention.
        var base: Int64?
        /// The version of the last event sent: the `from` of the next one.
        var delivered: Int64?
        /// The view the client shows at `base` (the request's `from…` view until the first event).
        var from: ViewParameters
        /// The first event went out (a stream may start before it: when the database is away).
        var sentFirst = false
        /// A computation or a chunk is in flight; only its owner touches `base` and `http`.
        var busy = true
        var closed = false
        /// The timer entry of the end of life, cancelled on close.
        var maxAge: UInt64?
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
    private let state: Mutex<State>

    /// A stream that starts busy: its creator computes the first event.
    init(id: UInt64, request: EventsRequest, exchange: Exchange) {
        self.id = id
        self.list = request.first.list
        self.view = request.first.to
        self.includeEmpty = request.includeEmpty
        self.isHead = exchange.request.method == .HEAD
        self.requestId = exchange.request.requestId
        let since = request.first.since
        state = Mutex(State(base: since, delivered: since, from: request.first.from, exchange: exchange))
    }

    /// The request, while the answer has not started (nil after: see `State.exchange`).
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
                query: TransitionQuery(list: list, since: s.base, from: s.from, to: view),
                delivered: s.delivered)
        }
    }

    /// The version its client's view shows, nil while the first event is computed or once closed.
    var shownVersion: Int64? {
        state.withLock { s in s.closed || s.http == nil ? nil : s.base }
    }

    /// The HTTP answer, nil until it started (with the first event, or while the database is away).
    var http: HTTPStream? { state.withLock { $0.http } }

    /// Whether a computation or a chunk is in flight (a heartbeat skips the stream meanwhile).
    var isBusy: Bool { state.withLock { $0.busy } }

    /// Whether the first event went out: until then an empty transition is sent too.
    var hasSentFirstEvent: Bool { state.withLock { $0.sentFirst } }

    /// Claims the stream for a computation if it is free and behind `head`; false otherwise
    /// (a busy stream looks at the head itself when it becomes free, so nothing is missed).
    func claim(head: Int64) -> Bool {
        state.withLock { s in
            guard !s.closed, !s.busy, s.http != nil, head > (s.base ?? -1) else { return false }
            s.busy = true
            return true
        }
    }

    /// Claims a free, open stream for a heartbeat chunk.
    func claimForHeartbeat() -> HTTPStream? {
        state.withLock { s in
            guard !s.closed, !s.busy, let http = s.http else { return nil }
            s.busy = true
            return http
        }
    }

    /// What `claimToRetry` found.
    enum RetryClaim {
        case claimed, busy, closed
    }

    /// Claims a free, started stream for a computation whatever the head (its last one failed
    /// because the database was away).
    func claimToRetry() -> RetryClaim {
        state.withLock { s in
            if s.closed || s.http == nil { return .closed }
            if s.busy { return .busy }
            s.busy = true
            return .claimed
        }
    }

    /// Frees a busy stream whatever the head: its computation failed and a retry is scheduled,
    /// so that heartbeats go on meanwhile and a commit may claim it sooner.
    func pause() {
        state.withLock { s in s.busy = false }
    }

    /// Frees a busy stream, unless its list moved past `base` meanwhile: then it stays claimed
    /// and the caller computes again (true).
    ///
    /// The head is read under the stream's lock: the commit hook moves heads before it claims,
    /// so either this sees the new head, or the commit's claim comes after and finds the stream
    /// free. (Reading it before the lock could free the stream on a stale head and miss a write.)
    /// A head forgotten by the bounded `ListHeads` reads as 0: the stream then waits for the next
    /// commit of its list, whose claim carries the committed version itself.
    func release(heads: ListHeads) -> Bool {
        state.withLock { s in
            guard !s.closed else { return false }
            if (heads.version(of: list) ?? 0) > (s.base ?? -1) { return true }
            s.busy = false
            return false
        }
    }

    /// Records that the client's view is now the one at `version`: sent to it, or (not
    /// `delivered`) equal to the one it has.
    func advance(to version: Int64, delivered: Bool) {
        state.withLock { s in
            s.base = version
            s.from = view
            if delivered {
                s.delivered = version
                s.sentFirst = true
            }
        }
    }

    /// Attaches the HTTP answer started for the first event; false when the stream closed meanwhile.
    /// (It is started outside the lock: its handlers may run at once and close the stream.)
    func attach(_ http: HTTPStream) -> Bool {
        state.withLock { s in
            guard !s.closed else { return false }
            s.http = http
            s.exchange = nil
            return true
        }
    }

    /// Keeps the token of the end of life to cancel it on close; false when the stream already closed.
    func keep(maxAge token: UInt64) -> Bool {
        state.withLock { s in
            if s.closed { return false }
            s.maxAge = token
            return true
        }
    }

    /// Closes the stream for good; returns its HTTP answer and timer the first time only.
    func close() -> (http: HTTPStream?, timer: UInt64?)? {
        state.withLock { s in
            guard !s.closed else { return nil }
            s.closed = true
            s.exchange = nil
            return (s.http, s.maxAge)
        }
    }
}
