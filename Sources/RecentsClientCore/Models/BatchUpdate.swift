#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One `performBatchUpdates` worth of changes, in UIKit's index spaces (one section).
///
/// Deletions and reloads are row indices of the state **before** the update, insertions of the
/// state **after** it, as `performBatchUpdates(_:completion:)` and the Table View Programming
/// Guide's "Batch Insertion, Deletion, and Reloading of Rows and Sections" require. A row that
/// moved is a deletion at its old index plus an insertion at its new one (see `ListModel`).
public struct BatchUpdate: Sendable, Hashable {
    /// Rows the table shows before the update (what `numberOfRows` answered last).
    public var numberOfRowsBefore: Int
    /// Rows the data source reports after the update.
    public var numberOfRowsAfter: Int
    /// Rows to delete, indices before the update, ascending.
    public var deletions: [Int]
    /// Rows to insert, indices after the update, ascending.
    public var insertions: [Int]
    /// Rows to reload (content changed, same row), indices before the update, ascending.
    public var reloads: [Int]
    /// The row ids after the update, in order: the items of a diffable data source's snapshot.
    public var itemIdentifiers: [String]
    /// The ids of rows whose content changed in place: `reconfigureItems(_:)` of a diffable snapshot.
    public var reconfiguredIdentifiers: [String]
    /// Whether the update replaces the whole list (an `initial` transition): `reloadData()` is as good.
    public var isFullReload = false
    /// How to animate it.
    public var animation = TransitionAnimation.none

    /// Whether no row is deleted, inserted or reloaded.
    public var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && reloads.isEmpty }

    /// `deletions` as index paths in `section`, for `deleteRows(at:with:)`.
    public func deletedIndexPaths(section: Int = 0) -> [IndexPath] { Self.paths(deletions, section) }
    /// `insertions` as index paths in `section`, for `insertRows(at:with:)`.
    public func insertedIndexPaths(section: Int = 0) -> [IndexPath] { Self.paths(insertions, section) }
    /// `reloads` as index paths in `section`, for `reloadRows(at:with:)`.
    public func reloadedIndexPaths(section: Int = 0) -> [IndexPath] { Self.paths(reloads, section) }

    /// Two-element index paths (section, row), the shape UIKit's `IndexPath(row:section:)` builds.
    static func paths(_ rows: [Int], _ section: Int) -> [IndexPath] { rows.map { IndexPath(indexes: [section, $0]) } }
}
