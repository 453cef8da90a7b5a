import RecentsCore

/// A lazy, newest-first sequence of calls read in growing chunks (keyset pagination on the view
/// order), so the newest N calls of a large list cost about N index entries.
///
/// Valid only inside the transaction body that created it; a failure ends the sequence early and
/// fails the enclosing transaction.
final class PGCallCursor: Sequence, IteratorProtocol, CallCursorSource {
    static let columns = "call_id, peer_id, peer_name, direction, end_reason, video, duration, \"timestamp\""
    /// Live at $2, of list $1, and created at or above the list's floor at $2, `$floor`: not a
    /// forget's leftover (see `purge_below`) nor hidden by a clear not yet marked (`list_clears`).
    private static func live(floor: Int) -> String {
        "list_id = $1 AND created_version <= $2 AND (deleted_version IS NULL OR deleted_version > $2)"
            + " AND created_version >= $\(floor)"
    }
    private static let order = "ORDER BY \"timestamp\" DESC, call_id DESC"
    private static let firstAll = "SELECT \(columns) FROM calls WHERE \(live(floor: 4)) \(order) LIMIT $3"
    private static let firstMissed = "SELECT \(columns) FROM calls WHERE \(live(floor: 4)) AND missed \(order) LIMIT $3"
    private static let nextAll =
        "SELECT \(columns) FROM calls WHERE \(live(floor: 6)) AND (\"timestamp\", call_id) < ($4, $5) \(order) LIMIT $3"
    private static let nextMissed =
        "SELECT \(columns) FROM calls WHERE \(live(floor: 6)) AND missed AND (\"timestamp\", call_id) < ($4, $5) \(order) LIMIT $3"

    // The ids alone, with each chunk's last timestamp for the next: `calls_view` holds every
    // column they read, so the scan can be index-only.
    private static let firstIds = "SELECT call_id, \"timestamp\" FROM calls WHERE \(live(floor: 4)) \(order) LIMIT $3"
    private static let nextIds =
        "SELECT call_id, \"timestamp\" FROM calls WHERE \(live(floor: 6)) AND (\"timestamp\", call_id) < ($4, $5) \(order) LIMIT $3"
    /// Rows per round trip of `ids`: few round trips for a million, a bounded result each.
    static let idsChunk = 16_384

    private let listId: Int64
    private let floor: Int64
    private let version: Int64
    private let missedOnly: Bool
    private weak var transaction: PGReadTransaction?
    private var buffer: [Call] = []
    private var index = 0
    private var chunk = 32
    private var exhausted: Bool

    init(_ row: ListRow, version: Int64, floor: Int64, filter: CallFilter, transaction: PGReadTransaction) {
        self.listId = row.id
        self.floor = floor
        self.version = version
        self.missedOnly = filter == .missed
        self.transaction = transaction
        self.exhausted = false
    }

    init(empty: Void) {
        listId = 0
        floor = 0
        version = 0
        missedOnly = false
        exhausted = true
    }

    /// The next call, or nil at the end (or after an error, which the transaction reports).
    func next() -> Call? {
        if index == buffer.count {
            guard !exhausted, let transaction, transaction.isActive else { return nil }
            do {
                try fetch(transaction)
            } catch {
                if let failure = error as? PGError { transaction.noteFailure(failure) }
                if transaction.deferredError == nil { transaction.deferredError = PGError.leavingStore(error) }
                exhausted = true
            }
            guard index < buffer.count else { return nil }
        }
        defer { index += 1 }
        return buffer[index]
    }

    private func fetch(_ transaction: PGReadTransaction) throws {
        let result: PGResult
        if let last = buffer.last {
            result = try transaction.connection.query(
                missedOnly ? Self.nextMissed : Self.nextAll, listId, version, chunk, last.timestamp, last.id, floor)
        } else {
            result = try transaction.connection.query(
                missedOnly ? Self.firstMissed : Self.firstAll, listId, version, chunk, floor)
        }
        buffer = try (0..<result.count).map { try Self.decode(result, row: $0) }
        index = 0
        exhausted = result.count < chunk
        chunk = Swift.min(chunk * 4, 2048)
    }

    /// The ids of the calls of the list of `row` live at `version`, created at or above `floor`,
    /// in the view order, read in chunks of `idsChunk` (keyset pagination, as the cursor reads).
    static func ids(_ row: ListRow, version: Int64, floor: Int64, on connection: PGConnection) throws -> [String] {
        var ids: [String] = []
        // The live count now: exact at the current version, a hint at an older one.
        ids.reserveCapacity(row.callCount)
        var last: (timestamp: Int64, id: String)?
        while true {
            let result =
                if let last {
                    try connection.query(nextIds, row.id, version, idsChunk, last.timestamp, last.id, floor)
                } else {
                    try connection.query(firstIds, row.id, version, idsChunk, floor)
                }
            let count = result.count
            for index in 0..<count { ids.append(result.string(index, 0)) }
            guard count == idsChunk else { return ids }
            last = (try result.int64(count - 1, 1), result.string(count - 1, 0))
        }
    }

    /// Decodes row `row` of a result selected with `columns`.
    static func decode(_ result: PGResult, row: Int) throws -> Call {
        guard let direction = CallDirection(rawValue: result.string(row, 3)),
            let endReason = EndReason(rawValue: result.string(row, 4))
        else { throw StoreError.corruptRow("call \(result.string(row, 0))") }
        return Call(
            id: result.string(row, 0), peer: Peer(id: result.string(row, 1), name: result.string(row, 2)),
            direction: direction, endReason: endReason, video: result.bool(row, 5), duration: try result.int(row, 6),
            timestamp: try result.int64(row, 7))
    }
}
