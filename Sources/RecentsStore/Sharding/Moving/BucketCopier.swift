/// Copies lists, named, with every row a client can observe (`ListTable.all`), from one shard's
/// database to another's: each call of `copy` reads its lists in one snapshot of the source and
/// replaces the target's rows of them in one transaction, so a list arrives whole at one of its
/// versions or not at all. Rows travel as JSON (`json_agg`, `json_populate_recordset`), so a
/// column a migration adds is copied without a change here; the target's own list row ids are
/// kept, and the other tables' `list_id`s are mapped to them by name.
///
/// Used by one thread (`BucketMover`); not Sendable.
final class BucketCopier {
    let source: PGConnection
    let target: PGConnection
    /// The target's columns of each table, identity columns left out (the target numbers its own rows).
    private var columns: [String: [String]] = [:]

    /// A list's bucket in SQL, the same number as `Bucket.of`: the first 8 bytes of SHA-256 of the
    /// name, big-endian, modulo 4,096, which is the low 12 bits of bytes 6 and 7.
    static let bucketOfName =
        "(((get_byte(sha256(convert_to(name, 'UTF8')), 6) & 15) << 8) | get_byte(sha256(convert_to(name, 'UTF8')), 7))"

    init(source: PGConnection, target: PGConnection) {
        self.source = source
        self.target = target
    }

    /// The source's lists of `bucket`: name, version and live calls (one scan of the names).
    func lists(in bucket: Int) throws -> [(name: String, version: Int64, calls: Int)] {
        let found = try source.query(
            "SELECT name, version, call_count FROM lists WHERE \(Self.bucketOfName) = $1 ORDER BY name", bucket)
        return try (0..<found.count).map { (found.string($0, 0), try found.int64($0, 1), try found.int($0, 2)) }
    }

    /// Copies `names` whole: the target's rows of them are replaced by the source's, read in one
    /// snapshot. Returns the rows copied and the version each list was copied at.
    func copy(_ names: [String]) throws -> (rows: Int, versions: [String: Int64]) {
        guard !names.isEmpty else { return (0, [:]) }
        let read =
            [PGStatement("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")]
            + ListTable.all.map { table in
                PGStatement(
                    "SELECT coalesce(json_agg(t), '[]')::text, count(*) FROM \(table.name) t WHERE \(table.rows(of: 1, alias: "t"))",
                    PGArray(names))
            } + [PGStatement("SELECT name, version FROM lists WHERE name = ANY($1::text[])", PGArray(names))]
        let results = try source.pipeline(read + [PGStatement("COMMIT")])
        let rows = try (1...ListTable.all.count).map {
            (json: results[$0].string(0, 0), count: try results[$0].int(0, 1))
        }
        let listed = results[ListTable.all.count + 1]
        var versions: [String: Int64] = [:]
        for row in 0..<listed.count { versions[listed.string(row, 0)] = try listed.int64(row, 1) }

        var write = [PGStatement("BEGIN")]
        // The target's rows of these lists go first, the list rows themselves excepted: they are
        // updated in place, so their ids, which the other tables point at, stay.
        for table in ListTable.all.reversed() where table.name != "lists" {
            write.append(
                PGStatement("DELETE FROM \(table.name) t WHERE \(table.rows(of: 1, alias: "t"))", PGArray(names)))
        }
        for (table, copied) in zip(ListTable.all, rows) where copied.count > 0 {
            write.append(try insert(into: table, json: copied.json, lists: rows[0].json))
        }
        _ = try target.pipeline(write + [PGStatement("COMMIT")])
        return (rows.reduce(0) { $0 + $1.count }, versions)
    }

    /// Copies the idempotency keys of `names` recorded at or after `since` (unix seconds) over the
    /// target's: the one change a write makes without a new version. Returns how many.
    func copyKeys(of names: [String], since: Int64) throws -> Int {
        guard !names.isEmpty else { return 0 }
        let table = ListTable.keys
        let found = try source.query(
            """
            SELECT coalesce(json_agg(t), '[]')::text, count(*) FROM \(table.name) t
            WHERE \(table.rows(of: 1, alias: "t")) AND t.created_at >= $2
            """, PGArray(names), since)
        guard try found.int(0, 1) > 0 else { return 0 }
        _ = try target.pipeline([try insert(into: table, json: found.string(0, 0), lists: "[]")])
        return try found.int(0, 1)
    }

    /// The statement inserting `json`'s rows of `table` on the target; `lists` holds the source's
    /// list rows, through which a `list_id` is mapped to the target's row of the same name.
    private func insert(into table: ListTable, json: String, lists: String) throws -> PGStatement {
        let names = try targetColumns(table.name)
        let into = names.map(ListTable.quoted).joined(separator: ", ")
        let name = table.name
        switch table.key {
        case .listId(let column):
            let values = names.map { $0 == column ? "m.new" : "r.\(ListTable.quoted($0))" }.joined(separator: ", ")
            return PGStatement(
                """
                INSERT INTO \(name) (\(into))
                SELECT \(values) FROM json_populate_recordset(NULL::\(name), $1::json) r
                JOIN (
                    SELECT s.id AS old, l.id AS new FROM json_populate_recordset(NULL::lists, $2::json) s
                    JOIN lists l ON l.name = s.name
                ) m ON r.\(ListTable.quoted(column)) = m.old
                """, json, lists)
        case .name:
            let values = names.map { "r.\(ListTable.quoted($0))" }.joined(separator: ", ")
            var sql =
                "INSERT INTO \(name) (\(into)) SELECT \(values) FROM json_populate_recordset(NULL::\(name), $1::json) r"
            if let conflict = table.conflict {
                let updates = names.filter { !conflict.contains($0) }.map {
                    "\(ListTable.quoted($0)) = excluded.\(ListTable.quoted($0))"
                }
                sql +=
                    " ON CONFLICT (\(conflict.map(ListTable.quoted).joined(separator: ", "))) DO UPDATE SET "
                    + updates.joined(separator: ", ")
            }
            return PGStatement(sql, json)
        }
    }

    private func targetColumns(_ table: String) throws -> [String] {
        if let known = columns[table] { return known }
        let found = try target.query(
            """
            SELECT column_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1 AND is_identity = 'NO'
            ORDER BY ordinal_position
            """, table)
        let names = (0..<found.count).map { found.string($0, 0) }
        columns[table] = names
        return names
    }
}
