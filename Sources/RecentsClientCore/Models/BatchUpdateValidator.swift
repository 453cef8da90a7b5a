/// A rule of UITableView's batch-update consistency check that a `BatchUpdate` breaks.
public enum BatchUpdateRule: String, Sendable, Hashable, CaseIterable {
    /// Rows after ≠ rows before − deletions + insertions ("invalid number of rows in section 0").
    case rowCount
    /// A deletion outside the before-update rows ("attempt to delete row N from section 0 which only contains M rows before the update").
    case deletionOutOfRange
    /// A reload outside the before-update rows ("attempt to reload row N … before the update").
    case reloadOutOfRange
    /// An insertion outside the after-update rows ("attempt to insert row N into section 0, but there are only M rows … after the update").
    case insertionOutOfRange
    /// One row deleted twice.
    case duplicateDeletion
    /// One row inserted twice.
    case duplicateInsertion
    /// One row reloaded twice.
    case duplicateReload
    /// One before-index both deleted and reloaded ("attempt to delete and reload the same index path").
    case deleteAndReload
    /// The snapshot's identifiers do not number the after-update rows.
    case identifierCount
    /// One identifier twice in the snapshot ("Fatal: supplied item identifiers are not unique").
    case duplicateIdentifier
    /// A reconfigured identifier that the snapshot does not hold ("Invalid item identifier specified for reconfigure").
    case unknownReconfigure
}

/// One broken rule, with the offending index or identifier.
public struct BatchUpdateViolation: Sendable, Hashable, CustomStringConvertible {
    /// The rule.
    public var rule: BatchUpdateRule
    /// What broke it.
    public var detail: String

    /// A readable line: the rule and the detail.
    public var description: String { "\(rule.rawValue): \(detail)" }
}

/// Reproduces the consistency checks UITableView runs on a batch update, so that Linux tests
/// can prove an update would not raise `NSInternalInconsistencyException`.
///
/// Where each rule comes from (paraphrased from Apple's documentation):
/// - UITableView `performBatchUpdates(_:completion:)` and the Table View Programming Guide for
///   iOS, "Batch Insertion, Deletion, and Reloading of Rows and Sections": deletions are handled
///   before insertions whatever order the calls are made in; deletion and reload index paths
///   name rows of the table *before* the update, insertion index paths rows of the table *after*
///   it → `deletionOutOfRange`, `reloadOutOfRange` (before space), `insertionOutOfRange` (after).
/// - The same guide: when the block ends the table asks its data source for the new row count,
///   which must equal the old count minus the deleted rows plus the inserted ones ("invalid
///   number of rows in section") → `rowCount`.
/// - `reloadRows(at:with:)`: a reload is carried out as a delete and an insert of that row, so a
///   row that is also deleted raises "attempt to delete and reload the same index path"
///   → `deleteAndReload`; for the same reason an index path named twice in one kind of change is
///   counted twice → the `duplicate…` rules. (WWDC 2018 session 225, "A Tour of UICollectionView",
///   states the same model: deletes at original indexes, inserts at final ones, reloads at original
///   ones, and no reload of an item that also moves.)
/// - `NSDiffableDataSourceSnapshot.appendItems(_:toSection:)`: identifiers must be unique in a
///   snapshot → `duplicateIdentifier`, and one identifier per row → `identifierCount`;
///   `reconfigureItems(_:)` and `reloadItems(_:)` accept only identifiers the snapshot holds
///   → `unknownReconfigure`.
public enum BatchUpdateValidator {
    /// Every rule `update` breaks; empty when UIKit would accept it.
    public static func violations(of update: BatchUpdate) -> [BatchUpdateViolation] {
        var found: [BatchUpdateViolation] = []
        func add(_ rule: BatchUpdateRule, _ detail: String) { found.append(.init(rule: rule, detail: detail)) }
        let before = update.numberOfRowsBefore
        let after = update.numberOfRowsAfter
        if after != before - update.deletions.count + update.insertions.count {
            add(
                .rowCount,
                "\(after) rows after, \(before) before, \(update.deletions.count) deleted, \(update.insertions.count) inserted"
            )
        }
        for row in update.deletions where row < 0 || row >= before {
            add(.deletionOutOfRange, "row \(row) of \(before)")
        }
        for row in update.reloads where row < 0 || row >= before { add(.reloadOutOfRange, "row \(row) of \(before)") }
        for row in update.insertions where row < 0 || row >= after {
            add(.insertionOutOfRange, "row \(row) of \(after)")
        }
        for row in duplicates(update.deletions) { add(.duplicateDeletion, "row \(row)") }
        for row in duplicates(update.insertions) { add(.duplicateInsertion, "row \(row)") }
        for row in duplicates(update.reloads) { add(.duplicateReload, "row \(row)") }
        for row in Set(update.deletions).intersection(update.reloads).sorted() { add(.deleteAndReload, "row \(row)") }
        if update.itemIdentifiers.count != after {
            add(.identifierCount, "\(update.itemIdentifiers.count) identifiers for \(after) rows")
        }
        for id in duplicates(update.itemIdentifiers) { add(.duplicateIdentifier, id) }
        let known = Set(update.itemIdentifiers)
        for id in update.reconfiguredIdentifiers where !known.contains(id) { add(.unknownReconfigure, id) }
        return found
    }

    /// The values that occur more than once, each named once, in first-repeat order.
    static func duplicates<Value: Hashable>(_ values: [Value]) -> [Value] {
        var seen = Set<Value>()
        var repeated: [Value] = []
        var reported = Set<Value>()
        for value in values where !seen.insert(value).inserted && reported.insert(value).inserted {
            repeated.append(value)
        }
        return repeated
    }
}
