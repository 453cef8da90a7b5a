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
    /// Pulls at most the window's calls plus one (the first call of the row after the window),
    /// so a lazy cursor over a huge list costs only what the window shows. Inlinable so it is
    /// specialised for the caller's sequence type (an array, the store's cursor).
    @inlinable
    public static func view(orderedCalls: some Sequence<Call>, state: ListState, parameters: ViewParameters) -> View {
        var rows: [Row] = []
        rows.reserveCapacity(Swift.max(0, Swift.min(parameters.limit, 1024)))
        var current: RowAccumulator?
        for call in orderedCalls where parameters.includes(call) {
            let day = localDay(timestamp: call.timestamp, tz: parameters.tz)
            if current?.accepts(call, day: day) == true {
                current?.add(call)
                continue
            }
            if let finished = current {
                rows.append(finished.row(state: state))
                current = nil
            }
            // The limit-th row is complete only now (a later call started a new row), so a
            // further row exists exactly when we get here with a full window.
            if rows.count >= parameters.limit { return View(rows: rows, hasMore: true) }
            current = RowAccumulator(call, day: day)
        }
        if let finished = current { rows.append(finished.row(state: state)) }
        return View(rows: rows, hasMore: false)
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
        let parameters = ViewParameters(filter: filter, limit: Int.max, tz: tz)
        var current: RowAccumulator?
        for call in orderedCalls where parameters.includes(call) {
            let day = localDay(timestamp: call.timestamp, tz: tz)
            if current?.accepts(call, day: day) == true {
                // A call with that id inside another row: ids are unique, so no row has it.
                if call.id == id { return nil }
                current?.add(call)
                continue
            }
            if let finished = current, finished.id == id { return finished.row(state: state) }
            current = RowAccumulator(call, day: day)
        }
        if let finished = current, finished.id == id { return finished.row(state: state) }
        return nil
    }
}

/// A row under construction: the newest call's fields plus what later calls add.
@usableFromInline
struct RowAccumulator {
    @usableFromInline let first: Call
    @usableFromInline let day: Int64
    @usableFromInline let missed: Bool
    @usableFromInline var callIds: [String]
    @usableFromInline var incoming: Bool
    @usableFromInline var outgoing: Bool

    @inlinable
    init(_ call: Call, day: Int64) {
        first = call
        self.day = day
        missed = call.isMissed
        callIds = [call.id]
        incoming = call.direction == .incoming
        outgoing = call.direction == .outgoing
    }

    @inlinable
    var id: String { first.id }

    /// The four grouping keys: peer, local day, missed class, video.
    @inlinable
    func accepts(_ call: Call, day: Int64) -> Bool {
        day == self.day && call.isMissed == missed && call.video == first.video && call.peer.id == first.peer.id
    }

    @inlinable
    mutating func add(_ call: Call) {
        callIds.append(call.id)
        switch call.direction {
        case .incoming: incoming = true
        case .outgoing: outgoing = true
        }
    }

    @inlinable
    func row(state: ListState) -> Row {
        let count = callIds.count
        return Row(
            id: first.id, peer: first.peer, count: count, callIds: callIds, timestamp: first.timestamp,
            missed: missed, incoming: incoming, outgoing: outgoing, video: first.video,
            duration: count == 1 ? first.duration : nil,
            status: Row.status(missed: missed, incoming: incoming, outgoing: outgoing),
            revealed: state.revealedRowId == first.id, editing: state.editing)
    }
}
