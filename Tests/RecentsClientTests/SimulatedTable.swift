import Foundation
import RecentsClient
import RecentsCore
import Testing

/// A stand-in for UITableView that applies batch updates with its semantics: while the update
/// block runs it records deletions, reloads and insertions; afterwards it checks the data
/// source's new row count against before − deletions + insertions, removes the deleted rows
/// (before indexes), inserts the new ones (after indexes) and refreshes the reloaded ones.
@MainActor
final class SimulatedTable {
    private(set) var shown: [Row] = []
    private(set) var batches = 0
    private(set) var crossfades = 0
    private var deleted: [IndexPath] = []
    private var reloaded: [IndexPath] = []
    private var inserted: [(IndexPath, RowAnimationStyle)] = []
    let dataSource: () -> [Row]

    init(dataSource: @escaping () -> [Row]) { self.dataSource = dataSource }

    func reloadData() { shown = dataSource() }
    func deleteRows(at paths: [IndexPath], with _: RowAnimationStyle) { deleted += paths }
    func reloadRows(at paths: [IndexPath], with _: RowAnimationStyle) { reloaded += paths }
    func insertRows(at paths: [IndexPath], with style: RowAnimationStyle) { inserted += paths.map { ($0, style) } }
    func crossfade(_ changes: () -> Void) {
        crossfades += 1
        changes()
    }

    func performBatchUpdates(_ updates: () -> Void) {
        (deleted, reloaded, inserted) = ([], [], [])
        updates()
        batches += 1
        let rows = dataSource()
        let before = shown.count
        #expect(rows.count == before - deleted.count + inserted.count, "invalid number of rows")
        let deletedRows = Set(deleted.map { $0[1] })
        #expect(deletedRows.count == deleted.count && deletedRows.allSatisfy { $0 >= 0 && $0 < before })
        #expect(reloaded.allSatisfy { $0[1] >= 0 && $0[1] < before && !deletedRows.contains($0[1]) })
        // Reloaded rows keep their place among the survivors: remember which ids they were.
        let reloadedIds = Set(reloaded.map { shown[$0[1]].id })
        var next = shown.indices.filter { !deletedRows.contains($0) }.map { shown[$0] }
        for (path, _) in inserted.sorted(by: { $0.0[1] < $1.0[1] }) {
            guard path[1] >= 0 && path[1] <= next.count && path[1] < rows.count else {
                Issue.record("insert at \(path[1]) outside the table")
                return
            }
            next.insert(rows[path[1]], at: path[1])
        }
        // Cells not reloaded keep their old content; reloaded ones ask the data source again.
        for index in next.indices where reloadedIds.contains(next[index].id) { next[index] = rows[index] }
        shown = next
    }
}
