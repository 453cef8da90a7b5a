/// Groups calls into rows the way Telegram's call list does (contract: rows).
///
/// Telegram merges consecutive call messages with the same peer, day, missed-ness and
/// video-ness into one "(n)" cell; we reproduce that over the newest-first walk.
public enum RowBuilder {
    /// Seconds per day, for the local-day key.
    public static let secondsPerDay: Int64 = 86_400

    /// The API's call order as a strict "comes before": newest first, then id descending byte-wise.
    @inlinable
    public static func precedes(_ a: Call, _ b: Call) -> Bool {
        if a.timestamp != b.timestamp { return a.timestamp > b.timestamp }
        return Bytewise.less(b.id, a.id)
    }

    /// The local day of a timestamp: `floor((timestamp + tz * 60) / 86400)`, overflow-free.
    @inlinable
    public static func localDay(timestamp: Int64, tz: Int) -> Int64 {
        // Split both terms into whole days and a small remainder so no input can overflow.
        let tzDays = Int64(tz / 1440)
        let tzSeconds = Int64(tz % 1440) * 60
        let days = timestamp / secondsPerDay
        let rest = timestamp % secondsPerDay + tzSeconds
        return days + tzDays + floorDivide(rest, secondsPerDay)
    }

    @inlinable
    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    /// The view window over calls already in `precedes` order; stops pulling once the window is full.
    ///
    /// Pulls only the window's calls, the calls the filter skips among them, and one more (the
    /// first call of the row after the window), so a lazy cursor over a huge list costs only
    /// what the window shows. Inlinable so it is
    /// specialised for the caller's sequence type (an array, the store's cursor).
    @inlinable
    public static func view(orderedCalls: some Sequence<Call>, state: ListState, parameters: ViewParameters) -> View {
        var walker = RowWalker(state: state, filter: parameters.filter, tz: parameters.tz, limit: parameters.limit)
        // Arrays are walked in place: copying each call out costs three retains and releases.
        var full = orderedCalls.withContiguousStorageIfAvailable { calls in
            for index in calls.indices where !walker.feed(calls[index]) { return true }
            return false
        }
        if full == nil {
            full = false
            for call in orderedCalls where !walker.feed(call) {
                full = true
                break
            }
        }
        return walker.finish(hasMore: full ?? false)
    }

    /// The view window over unordered calls: sorts the participating calls first.
    public static func view(calls: [Call], state: ListState, parameters: ViewParameters) -> View {
        let ordered = calls.filter(parameters.includes).sorted(by: precedes)
        return view(orderedCalls: ordered, state: state, parameters: parameters)
    }

    /// The row with id `id` in the whole (unlimited) view, or nil when no row has that id.
    ///
    /// Stops at the row: rows before it must still be walked, since grouping is sequential.
    @inlinable
    public static func row(
        id: String, orderedCalls: some Sequence<Call>, state: ListState, filter: CallFilter, tz: Int
    ) -> Row? {
        rowWithCalls(id: id, orderedCalls: orderedCalls, state: state, filter: filter, tz: tz)?.row
    }

    /// The row with id `id` in the whole (unlimited) view and its calls, newest first (what the
    /// row's info page lists), or nil when no row has that id.
    ///
    /// Keeps only the open row's calls while it walks, so a long list costs one row's calls.
    @inlinable
    public static func rowWithCalls(
        id: String, orderedCalls: some Sequence<Call>, state: ListState, filter: CallFilter, tz: Int
    ) -> (row: Row, calls: [Call])? {
        rowWithCalls(of: id, isRowId: true, orderedCalls: orderedCalls, state: state, filter: filter, tz: tz)
    }

    /// The row of the whole (unlimited) view that groups call `callId`, with its calls newest
    /// first, or nil when the call is not live or the view leaves it out (a filter).
    ///
    /// A row's id is its newest call's, so a call joining a group renames the row: a client that
    /// knew the row by its old id finds it again through any call it knew in it.
    @inlinable
    public static func rowWithCalls(
        containing callId: String, orderedCalls: some Sequence<Call>, state: ListState, filter: CallFilter, tz: Int
    ) -> (row: Row, calls: [Call])? {
        rowWithCalls(of: callId, isRowId: false, orderedCalls: orderedCalls, state: state, filter: filter, tz: tz)
    }

    /// The walk behind both lookups: `target` is the row's id (`isRowId`) or any call of it.
    @inlinable
    static func rowWithCalls(
        of target: String, isRowId: Bool, orderedCalls: some Sequence<Call>, state: ListState, filter: CallFilter,
        tz: Int
    ) -> (row: Row, calls: [Call])? {
        var walker = RowWalker(state: state, filter: filter, tz: tz, limit: Int.max)
        // The calls of the row the walker has open; a call that closes it starts the next one.
        var calls: [Call] = []
        // Whether the open row holds the target (found by a call: the row's end is still ahead).
        var holdsTarget = false
        for call in orderedCalls {
            _ = walker.feed(call)
            if let finished = walker.rows.last {
                if holdsTarget { return (finished, calls) }
                walker.rows.removeAll(keepingCapacity: true)
                calls.removeAll(keepingCapacity: true)
            }
            let inView = filter == .all || call.isMissed
            if call.id == target {
                // Ids are unique: a call the filter leaves out is in no row, and a row id that names
                // a call inside another row names no row.
                guard inView, !isRowId || walker.firstId == target else { return nil }
                holdsTarget = true
            }
            if inView { calls.append(call) }
        }
        guard holdsTarget, let last = walker.finish(hasMore: false).rows.last else { return nil }
        return (last, calls)
    }
}

/// The newest-first walk that groups calls into rows (contract: rows, rule 2).
///
/// Keeps the open row's newest-call fields in plain variables and its call ids in a reused
/// scratch array, so a finished row costs exactly its two allocations (ids and row box).
@usableFromInline
struct RowWalker {
    @usableFromInline let state: ListState
    @usableFromInline let filter: CallFilter
    @usableFromInline let tz: Int
    @usableFromInline let limit: Int
    /// Finished rows.
    @usableFromInline var rows: [Row] = []
    /// The open row's call ids, newest first.
    @usableFromInline var callIds: [String] = []
    @usableFromInline var isOpen = false
    @usableFromInline var firstId = ""
    @usableFromInline var peer = Peer(id: "", name: "")
    @usableFromInline var timestamp: Int64 = 0
    @usableFromInline var day: Int64 = 0
    @usableFromInline var missed = false
    @usableFromInline var video = false
    @usableFromInline var duration = 0
    @usableFromInline var incoming = false
    @usableFromInline var outgoing = false

    @inlinable
    init(state: ListState, filter: CallFilter, tz: Int, limit: Int) {
        self.state = state
        self.filter = filter
        self.tz = tz
        self.limit = limit
        rows.reserveCapacity(Swift.max(0, Swift.min(limit, 1024)))
        callIds.reserveCapacity(16)
    }

    /// Takes the next call; false when the window is full and this call starts a further row.
    @inlinable @inline(__always)
    mutating func feed(_ call: Call) -> Bool {
        let callMissed = call.isMissed
        if filter == .missed && !callMissed { return true }
        let callDay = RowBuilder.localDay(timestamp: call.timestamp, tz: tz)
        // The four grouping keys: local day, missed class, video, peer.
        if isOpen && callDay == day && callMissed == missed && call.video == video && call.peer.id == peer.id {
            callIds.append(call.id)
            switch call.direction {
            case .incoming: incoming = true
            case .outgoing: outgoing = true
            }
            return true
        }
        closeRow()
        // The limit-th row is complete only now (a later call started a new row), so a
        // further row exists exactly when we get here with a full window.
        if rows.count >= limit { return false }
        isOpen = true
        firstId = call.id
        peer = call.peer
        timestamp = call.timestamp
        day = callDay
        missed = callMissed
        video = call.video
        duration = call.duration
        incoming = call.direction == .incoming
        outgoing = call.direction == .outgoing
        callIds.append(call.id)
        return true
    }

    @inlinable
    mutating func closeRow() {
        guard isOpen else { return }
        isOpen = false
        let count = callIds.count
        rows.append(
            Row(
                id: firstId, peer: peer, count: count, callIds: Array(callIds), timestamp: timestamp, missed: missed,
                incoming: incoming, outgoing: outgoing, video: video, duration: count == 1 ? duration : nil,
                status: Row.status(missed: missed, incoming: incoming, outgoing: outgoing),
                revealed: state.revealedRowId == firstId, editing: state.editing))
        callIds.removeAll(keepingCapacity: true)
    }

    @inlinable
    mutating func finish(hasMore: Bool) -> View {
        if !hasMore { closeRow() }
        return View(rows: rows, hasMore: hasMore)
    }
}
