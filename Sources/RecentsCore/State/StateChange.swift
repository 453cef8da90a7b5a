/// A new list state and whether it differs from the old one (a no-op creates no version).
public struct StateChange: Sendable, Hashable {
    /// The state after the change.
    public var state: ListState
    /// Whether `state` differs from the state the change was applied to.
    public var changed: Bool

    /// Creates a change result.
    public init(state: ListState, changed: Bool) {
        self.state = state
        self.changed = changed
    }
}

extension ListState {
    /// Opens or closes a row's options; at most one row is open, like Telegram's swipe.
    ///
    /// Opening always wins (it closes any other row); closing applies only to the open row,
    /// so a late "close" for a row that is no longer open cannot close a newer one.
    public func revealing(rowId: String, revealed: Bool) -> StateChange {
        var next = self
        if revealed {
            next.revealedRowId = rowId
        } else if revealedRowId == rowId {
            next.revealedRowId = nil
        }
        return StateChange(state: next, changed: next != self)
    }

    /// Enters or leaves edit mode; leaving also closes the open row (Telegram resets swipes on "Done").
    public func settingEditing(_ editing: Bool) -> StateChange {
        var next = self
        next.editing = editing
        if !editing { next.revealedRowId = nil }
        return StateChange(state: next, changed: next != self)
    }

    /// Moves the seen mark to `through` if that is later: the mark never goes back, so two
    /// devices marking at once, in either order, leave the later of their marks.
    public func markingSeen(through: Int64) -> StateChange {
        var next = self
        next.seenThrough = max(seenThrough, through)
        return StateChange(state: next, changed: next != self)
    }

    /// Forgets the open row when it names one of the deleted calls.
    public func removingCalls(_ ids: some Sequence<String>) -> StateChange {
        guard let open = revealedRowId, ids.contains(open) else { return StateChange(state: self, changed: false) }
        var next = self
        next.revealedRowId = nil
        return StateChange(state: next, changed: true)
    }

    /// Applies a gesture decision on row `rowId`: open reveals it, closed and selected close it.
    public func applying(_ decision: GestureDecision, rowId: String) -> StateChange {
        revealing(rowId: rowId, revealed: decision.outcome == .open)
    }
}
