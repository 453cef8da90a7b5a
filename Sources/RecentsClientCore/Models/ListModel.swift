import RecentsCore

/// Why `ListModel.apply(_:)` refused a transition; the model is unchanged and should resync.
public enum ListModelError: Error, Sendable, Hashable {
    /// The transition does not start where the model is (another epoch, or `from` ≠ `version`).
    case discontinuous(modelVersion: Int?, modelEpoch: String?, from: Int?, epoch: String)
    /// Applying it would hand UIKit an inconsistent batch update.
    case inconsistent([BatchUpdateViolation])
    /// A delete or update names a row id that is not at its old index.
    case rowMismatch(String)
}

/// The rows, version and view a screen shows, advanced one transition at a time.
///
/// A row that moves is given to UIKit as a deletion at its old index plus an insertion at its
/// new one, never as `moveRow(at:to:)`: UIKit refuses a reload of a row that also moves (WWDC
/// 2018 "A Tour of UICollectionView"), so a moved row whose content changed could not be
/// expressed as a move in one batch; Core's diff already encodes a move this way; the server
/// sends none (rows keep their relative order); and a diffable data source derives its own
/// moves from `itemIdentifiers` anyway.
public struct ListModel: Sendable, Hashable {
    /// The rows shown, newest first.
    public private(set) var rows: [Row] = []
    /// The version the rows show, or nil before the first transition.
    public private(set) var version: Int?
    /// The epoch of `version`.
    public private(set) var epoch: String?
    /// The view the rows belong to.
    public private(set) var view: ViewParameters
    /// The list's edit mode at `version`.
    public private(set) var editing = false
    /// The list's open row at `version`.
    public private(set) var revealedRowId: String?
    /// Whether rows exist beyond the window.
    public private(set) var hasMore = false
    /// The missed calls not seen yet (the badge), as the last transition or rows reply counted
    /// them; nil until a server that counts them answers.
    public private(set) var unseenMissed: Int?

    /// An empty model for `view` (it shows nothing until an `initial` transition arrives).
    public init(view: ViewParameters = .default) {
        self.view = view
    }

    /// The row ids in order (a diffable data source's items).
    public var rowIds: [String] { rows.map(\.id) }

    /// Applies a transition and returns the batch update that takes a table from the old rows to the new.
    ///
    /// An `initial` transition replaces whatever the model held (every old row deleted, every new
    /// row inserted, `isFullReload` set). Anything else must start at `version` in `epoch`.
    /// - Throws: `ListModelError` when the transition does not fit; the model is then unchanged.
    public mutating func apply(_ event: TransitionEvent) throws(ListModelError) -> BatchUpdate {
        let transition = event.transition
        let initial = event.isInitial
        if !initial && (event.from != version || event.epoch != epoch) {
            throw .discontinuous(modelVersion: version, modelEpoch: epoch, from: event.from, epoch: event.epoch)
        }
        let update =
            initial
            ? BatchUpdate.replacement(ofRows: rows.count, by: transition)
            : BatchUpdate.incremental(from: rows, by: transition)
        let violations = BatchUpdateValidator.violations(of: update)
        if !violations.isEmpty { throw .inconsistent(violations) }
        let newRows =
            initial
            ? transition.inserts.sorted { $0.index < $1.index }.map(\.row)
            : try applied(transition, identifiers: update.itemIdentifiers)
        if newRows.map(\.id) != update.itemIdentifiers { throw .rowMismatch("rows and identifiers disagree") }
        rows = newRows
        version = event.to
        epoch = event.epoch
        view = event.view
        editing = transition.editing
        revealedRowId = transition.revealedRowId
        hasMore = transition.hasMore
        unseenMissed = event.unseenMissed ?? unseenMissed
        return update
    }

    /// Takes the badge of a rows reply of the same list, unless it counts an older version than
    /// the rows shown (the rows themselves come only through transitions, which keep the order).
    /// Returns whether the badge changed.
    @discardableResult
    public mutating func noteBadge(of page: RowsPage) -> Bool {
        guard let count = page.unseenMissed, version.map({ page.version >= $0 && page.epoch == epoch }) ?? true
        else { return false }
        defer { unseenMissed = count }
        return unseenMissed != count
    }

    /// The new rows, after checking that every id the transition names sits where it says.
    func applied(_ transition: Transition, identifiers: [String]) throws(ListModelError) -> [Row] {
        // The validator checked the before and after spaces; updates also name their new index.
        for update in transition.updates where update.index < 0 || update.index >= identifiers.count {
            throw .rowMismatch("update of \(update.id) at new index \(update.index) of \(identifiers.count)")
        }
        for update in transition.updates where identifiers[update.index] != update.id {
            throw .rowMismatch("update of \(update.id) lands on \(identifiers[update.index])")
        }
        for delete in transition.deletes where rows[delete.index].id != delete.id {
            throw .rowMismatch("delete of \(delete.id) at \(delete.index) finds \(rows[delete.index].id)")
        }
        for update in transition.updates where rows[update.previousIndex].id != update.id || update.row.id != update.id
        {
            throw .rowMismatch("update of \(update.id) at old index \(update.previousIndex)")
        }
        for insert in transition.inserts where insert.row.id != insert.id {
            throw .rowMismatch("insert of \(insert.id) carries row \(insert.row.id)")
        }
        var sorted = transition
        sorted.deletes.sort { $0.index < $1.index }
        sorted.inserts.sort { $0.index < $1.index }
        return sorted.apply(to: rows)
    }
}
