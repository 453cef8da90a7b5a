/// A table holding rows of lists, as `BucketCopier` copies it: how its rows name their list,
/// and what the target database makes of its own (identity columns, the key an upsert meets).
struct ListTable: Sendable, Hashable {
    /// How a row names its list.
    enum Key: Sendable, Hashable {
        /// By the list's name, in this column (`lists.name`, `idempotency_keys.list`).
        case name(String)
        /// By the list's row id, in this column: the target's row id differs, so it is mapped.
        case listId(String)
    }

    let name: String
    let key: Key
    /// The columns that form a row's unique key, for an upsert; nil: rows are inserted afresh.
    let conflict: [String]?

    /// Every table whose rows belong to one list, in the order a copy writes them (`lists`
    /// first: the others map their list ids through it). A table added by a migration with a
    /// `list_id` or `list` column must be named here, or a move would leave its rows behind;
    /// `BucketMoveTests` compares this with the database's own catalogue.
    static let all: [ListTable] = [
        ListTable(name: "lists", key: .name("name"), conflict: ["name"]),
        ListTable(name: "list_versions", key: .listId("list_id"), conflict: nil),
        ListTable(name: "list_clears", key: .listId("list_id"), conflict: nil),
        ListTable(name: "calls", key: .listId("list_id"), conflict: nil),
        ListTable(name: "idempotency_keys", key: .name("list"), conflict: ["list", "key"]),
        // The outbox entries applied to the list (postgresql/0009): a replay of one after the move
        // must find its token on the new shard, or it would delete a re-posted copy again.
        ListTable(name: "shard_outbox_applied", key: .name("list"), conflict: ["token"]),
    ]

    /// The idempotency keys: the one table a write may change without giving its list a new
    /// version (a keyed request that changed nothing still records its answer).
    static var keys: ListTable { all[4] }

    /// `"name"`, quoted: identifiers are never bound values, and a column may be a keyword
    /// (`calls."timestamp"`).
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacing("\"", with: "\"\"") + "\""
    }

    /// The condition selecting this table's rows of the lists named by parameter `$n`
    /// (a `text[]`), for rows aliased `alias`.
    func rows(of parameter: Int, alias: String) -> String {
        switch key {
        case .name(let column): "\(alias).\(Self.quoted(column)) = ANY($\(parameter)::text[])"
        case .listId(let column):
            "\(alias).\(Self.quoted(column)) IN (SELECT id FROM lists WHERE name = ANY($\(parameter)::text[]))"
        }
    }
}
