import RecentsCore

extension BatchUpdate {
    /// The update of an incremental transition applied to `rows`, in before/after index spaces.
    static func incremental(from rows: [Row], by transition: Transition) -> BatchUpdate {
        let deleted = Set(transition.deletes.map(\.index))
        var identifiers = rows.indices.filter { !deleted.contains($0) }.map { rows[$0].id }
        // Inserts ascending land at their final index once every smaller index is filled.
        for insert in transition.inserts.sorted(by: { $0.index < $1.index }) {
            guard insert.index >= 0 && insert.index <= identifiers.count else { break }
            identifiers.insert(insert.id, at: insert.index)
        }
        return BatchUpdate(
            numberOfRowsBefore: rows.count, numberOfRowsAfter: transition.count,
            deletions: transition.deletes.map(\.index).sorted(), insertions: transition.inserts.map(\.index).sorted(),
            reloads: transition.updates.map(\.previousIndex).sorted(), itemIdentifiers: identifiers,
            reconfiguredIdentifiers: transition.updates.map(\.id), animation: TransitionAnimation(transition))
    }

    /// The update of an `initial` transition: delete every one of `rowCount` shown rows, insert the new view.
    static func replacement(ofRows rowCount: Int, by transition: Transition) -> BatchUpdate {
        let inserts = transition.inserts.sorted { $0.index < $1.index }
        return BatchUpdate(
            numberOfRowsBefore: rowCount, numberOfRowsAfter: transition.count, deletions: Array(0..<rowCount),
            insertions: inserts.map(\.index), reloads: [], itemIdentifiers: inserts.map(\.id),
            reconfiguredIdentifiers: [], isFullReload: true, animation: TransitionAnimation(transition))
    }

    /// The update that takes a screen from `old` to `new`, animated as the server animates the
    /// same change (`Transition.make`: reason and options from the two views, `down` hints for
    /// rows arriving on top), so an own action looks like the server's transition would.
    static func between(
        _ old: ListScreen, _ oldView: ViewParameters, and new: ListScreen, _ newView: ViewParameters
    ) -> BatchUpdate {
        let from = (view: View(rows: old.rows, hasMore: old.hasMore), parameters: oldView)
        let to = View(rows: new.rows, hasMore: new.hasMore)
        do {
            let transition = try Transition.make(from: from, to: to, parameters: newView, state: new.state)
            return incremental(from: old.rows, by: transition)
        } catch {
            // Only a repeated row id fails the diff, and neither the server nor a pending action makes
            // one; should it happen, a full reload is the safe answer.
            return reload(fromRows: old.rows.count, to: new.rows, animation: .none)
        }
    }
}

extension BatchUpdate {
    /// A full reload from `rowCount` shown rows to `rows`: every old row deleted, every new one inserted.
    static func reload(fromRows rowCount: Int, to rows: [Row], animation: TransitionAnimation) -> BatchUpdate {
        BatchUpdate(
            numberOfRowsBefore: rowCount, numberOfRowsAfter: rows.count, deletions: Array(0..<rowCount),
            insertions: Array(rows.indices), reloads: [], itemIdentifiers: rows.map(\.id),
            reconfiguredIdentifiers: [], isFullReload: true, animation: animation)
    }
}
