import RecentsCore

/// The list locks of one batch transaction, taken so that instances cannot deadlock on them.
///
/// A list is locked by its `lists` row `FOR UPDATE`, or, for a list never written, by a
/// transaction advisory lock on its name, taken before the row is created (a writer that created
/// the row meanwhile committed it before releasing that lock). Locks are taken in one fixed order,
/// sorted names: a lock in order waits; a lock out of order (a name below one already held) does
/// not wait (`NOWAIT`, `pg_try_advisory_xact_lock`) and fails with SQLSTATE 55P03 instead, which
/// rolls the batch back to run again with every list it touched locked first, in order. So no
/// transaction ever waits for a lock while holding a greater one, and no cycle of waits can form.
///
/// Owned by the writer thread for one attempt of one batch; not Sendable.
final class PGBatchLocks {
    /// The greatest name locked so far.
    private var highest: String?
    private var held = Set<String>()

    /// Locks `list` for the rest of the transaction and returns its row (nil when never written).
    /// - Throws: `PGError` 55P03 when the lock is out of order and another transaction holds it.
    @discardableResult
    func lock(_ list: String, on connection: PGConnection) throws -> ListRow? {
        let inOrder = held.contains(list) || highest.map { Bytewise.less(list, $0) } != true
        let select = "SELECT \(PGReadTransaction.listColumns) FROM lists WHERE name = $1 FOR UPDATE"
        let row: ListRow?
        if inOrder {
            if let found = try PGReadTransaction.decodeList(connection.query(select, list)) {
                row = found
            } else {
                try connection.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", list)
                row = try PGReadTransaction.decodeList(connection.query(select, list))
            }
        } else {
            if let found = try PGReadTransaction.decodeList(connection.query(select + " NOWAIT", list)) {
                row = found
            } else {
                let taken = try connection.query("SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0))", list)
                guard taken.bool(0, 0) else {
                    throw PGError(sqlState: "55P03", message: "a list lock out of order is busy", connectionLost: false)
                }
                row = try PGReadTransaction.decodeList(connection.query(select + " NOWAIT", list))
            }
        }
        noteHeld(list)
        return row
    }

    /// The statement that locks the rows of every list in `names` that has one, in name order
    /// (the batch must hold no list lock yet); `noteLocked` reads its result. A list without a
    /// row stays unlocked: `lock` takes its name lock when the batch first asks for it.
    ///
    /// Why a lateral probe per name rather than `name = ANY($1)`: on a table of a few hundred
    /// lists the planner reads the whole table and tests every row against every name (its
    /// generic plan counts on ten names), per batch and growing with the number of lists. Probed
    /// one name at a time (a subquery that locks is never merged into the join, so it runs once
    /// per name, in turn), the rows are locked in the order of the names, sorted here byte-wise
    /// (`name` is COLLATE "C"), the order every lock is taken in.
    func lockRowsStatement(of names: [String]) -> PGStatement {
        precondition(held.isEmpty, "the rows must be locked first in a batch")
        return PGStatement(
            """
            SELECT l.* FROM unnest($1::text[]) WITH ORDINALITY AS u(name, n)
            CROSS JOIN LATERAL (
                SELECT name, \(PGReadTransaction.listColumns) FROM lists WHERE lists.name = u.name FOR UPDATE
            ) AS l
            ORDER BY u.n
            """, PGArray(names.sorted(by: Bytewise.less)))
    }

    /// Notes the rows `lockRowsStatement` locked as held, and returns them by name.
    func noteLocked(_ result: PGResult) throws -> [String: ListRow] {
        var rows: [String: ListRow] = [:]
        for row in 0..<result.count {
            let name = result.string(row, 0)
            rows[name] = try PGReadTransaction.decodeList(result, row: row, from: 1)
            noteHeld(name)
        }
        return rows
    }

    private func noteHeld(_ list: String) {
        held.insert(list)
        if highest.map({ Bytewise.less($0, list) }) ?? true { highest = list }
    }
}
