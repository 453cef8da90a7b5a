import RecentsCore

/// How both engines' write transactions give a list its new version: once per request, at the
/// first effective mutation, creating the list's row if it was never written. An engine supplies
/// the two statements.
protocol VersionAssigning: ListRowReader, BatchedWriteTransaction {
    /// Lists changed by this request: name → (row id, the request's new version).
    var changed: [String: (id: Int64, version: Int64)] { get set }
    /// Lists whose retention horizon this request moved past what was already pruned.
    var needsPruning: [Int64] { get set }
    /// The retention window in force.
    var retainVersions: Int64 { get }
    /// Throws `StoreError.transactionEnded` once the body returned.
    func checkActive() throws

    /// Inserts the row of never-written `list` at version 0 (empty, default state, a real and
    /// retained version of every list) with its state row; returns the row's id.
    func insertList(_ list: String) throws -> Int64
    /// Sets the version of `list` (row `listId`); its state stays (only setState/forgetList write
    /// one). The engine keeps whatever it caches of the row right.
    func setVersion(_ version: Int64, of listId: Int64, list: String) throws
}

extension VersionAssigning {
    /// The version this request gives `list`: assigned at the first effective mutation, then
    /// reused for the rest of the request.
    func newVersion(of list: String) throws -> (id: Int64, version: Int64) {
        if let assigned = changed[list] { return assigned }
        guard Identifier.isValidListName(list) else { throw StoreError.invalidListName(list) }
        let listId: Int64
        let version: Int64
        if let row = try listRow(list) {
            listId = row.id
            version = row.version + 1
            if max(row.forgottenBelow, version - retainVersions) > row.prunedBelow { needsPruning.append(listId) }
        } else {
            listId = try insertList(list)
            version = 1
        }
        try setVersion(version, of: listId, list: list)
        changed[list] = (listId, version)
        return (listId, version)
    }

    /// Whether forgetting `list` changes anything: it has calls, a state other than the default,
    /// or history below its current version.
    func hasAnythingToForget(_ list: String) throws -> Bool {
        try checkActive()
        guard let row = try listRow(list) else { return false }
        return row.callCount != 0 || row.state != ListState() || oldestRetained(row) != row.version
    }

}
