#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The open row's life outside its own swipes, as in UIKit's table view and Telegram's list: a
/// tap anywhere else on the list closes it and does nothing else, and so does a scroll.
extension OptimisticListModel {
    /// A tap on the list, before the app acts on it: on row `rowId`, or on the list's empty area
    /// (`nil`). With another row open, it closes that row at once (an own action, queue it as any
    /// other) and returns it: the app then ignores the tap (the tapped row does not open, show its
    /// call or act). Nil when no row is open or the tap is on the open row: the app goes on.
    public mutating func tap(onRow rowId: String?, id: String = UUID().uuidString) -> PerformedAction? {
        guard let open = revealedRowId, open != rowId else { return nil }
        return perform(.reveal(rowId: open, revealed: false), id: id)
    }

    /// The user began scrolling the list (`scrollViewWillBeginDragging`): closes the open row at
    /// once and returns the action to queue; nil when no row is open.
    public mutating func beginScrolling(id: String = UUID().uuidString) -> PerformedAction? {
        guard let open = revealedRowId else { return nil }
        return perform(.reveal(rowId: open, revealed: false), id: id)
    }
}
