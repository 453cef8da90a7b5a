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
