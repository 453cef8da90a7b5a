internal import CSQLite
import RecentsCore

/// A lazy, newest-first sequence of calls that steps a prepared statement one row at a time.
///
/// The query walks the `calls_view` index, whose order is the view order, so reading the newest
/// N calls of a large list touches about N index entries and no sort is needed (the missed
/// filter tests `missed`, the index's last column, without a table lookup). Valid only inside the transaction body that created it; a SQLite
/// error ends the sequence early and fails the enclosing transaction.
final class CallCursor: Sequence, IteratorProtocol, CallCursorSource {
    static let columns = "call_id, peer_id, peer_name, direction, end_reason, video, duration, timestamp"
    // ?2 twice: live at V iff created_version <= V AND (deleted_version IS NULL OR deleted_version > V).
    // ?3, the list's floor at ?2: a call created below it is a forget's leftover (see `purge_below`)
    // or hidden by a clear the pruner has not marked yet (see `list_clears`).
    static let allSQL = """
        SELECT \(columns) FROM calls
        WHERE list_id = ?1 AND created_version <= ?2 AND (deleted_version IS NULL OR deleted_version > ?2)
            AND created_version >= ?3
        ORDER BY timestamp DESC, call_id DESC
        """
    /// `allSQL`'s ids alone: `calls_view` holds every column it reads, so no table row is fetched.
    static let idsSQL = """
        SELECT call_id FROM calls
        WHERE list_id = ?1 AND created_version <= ?2 AND (deleted_version IS NULL OR deleted_version > ?2)
            AND created_version >= ?3
        ORDER BY timestamp DESC, call_id DESC
        """
    static let missedSQL = """
        SELECT \(columns) FROM calls
        WHERE list_id = ?1 AND missed = 1 AND created_version <= ?2 AND (deleted_version IS NULL OR deleted_version > ?2)
            AND created_version >= ?3
        ORDER BY timestamp DESC, call_id DESC
        """

    private var statement: Statement?
    private weak var transaction: SQLiteReadTransaction?
    private var baselineSteps: Int32 = 0
    /// Virtual-machine steps this cursor has run (`SQLITE_STMTSTATUS_VM_STEP`); for tests.
    private(set) var steps: Int32 = 0

    init(statement: Statement, transaction: SQLiteReadTransaction) {
        self.statement = statement
        self.transaction = transaction
        baselineSteps = sqlite3_stmt_status(statement.handle, SQLITE_STMTSTATUS_VM_STEP, 0)
    }

    init(empty: Void) {}

    deinit { finish() }

    /// The next call, or nil at the end (or after an error, which the transaction reports).
    func next() -> Call? {
        guard let statement else { return nil }
        do {
            if try statement.step() {
                steps = sqlite3_stmt_status(statement.handle, SQLITE_STMTSTATUS_VM_STEP, 0) &- baselineSteps
                return try Self.decode(statement)
            }
        } catch {
            if transaction?.deferredError == nil { transaction?.deferredError = error }
        }
        finish()
        return nil
    }

    /// Gives the statement back to its connection's cache; the cursor is empty afterwards.
    func finish() {
        guard let statement else { return }
        steps = sqlite3_stmt_status(statement.handle, SQLITE_STMTSTATUS_VM_STEP, 0) &- baselineSteps
        self.statement = nil
        transaction?.connection.recycle(statement)
    }

    /// Decodes a row selected with `columns`.
    static func decode(_ statement: Statement) throws -> Call {
        guard let direction = CallDirection(rawValue: statement.string(3)),
            let endReason = EndReason(rawValue: statement.string(4))
        else { throw StoreError.corruptRow("call \(statement.string(0))") }
        return Call(
            id: statement.string(0), peer: Peer(id: statement.string(1), name: statement.string(2)),
            direction: direction, endReason: endReason, video: statement.bool(5), duration: statement.int(6),
            timestamp: statement.int64(7))
    }
}
