import RecentsCore

/// What a list view shows: rows in order, the list state they reflect, and whether more follow.
///
/// The optimistic model derives it as a pure function of the server's view and the pending own
/// actions (Replicache's "rebase": the screen is recomputed, never patched), so a server
/// transition and an own action go through the same code and cannot leave the screen half-updated.
public struct ListScreen: Sendable, Hashable {
    /// The rows, newest first, with `revealed` and `editing` as `state` says.
    public var rows: [Row]
    /// Edit mode and the open row.
    public var state: ListState
    /// Whether rows exist beyond the window.
    public var hasMore: Bool
    /// The view the rows belong to: a delete taken in another view names calls, not a row of this one.
    public var view: ViewParameters
    /// The missed calls not seen yet (the badge), or nil when the server does not count them.
    public var unseenMissed: Int?

    /// Creates a screen.
    public init(
        rows: [Row] = [], state: ListState = ListState(), hasMore: Bool = false, view: ViewParameters = .default,
        unseenMissed: Int? = nil
    ) {
        self.rows = rows
        self.state = state
        self.hasMore = hasMore
        self.view = view
        self.unseenMissed = unseenMissed
    }

    /// The server's view as a `ListModel` holds it.
    public init(_ model: ListModel) {
        self.init(
            rows: model.rows, state: ListState(editing: model.editing, revealedRowId: model.revealedRowId),
            hasMore: model.hasMore, view: model.view, unseenMissed: model.unseenMissed)
    }

    /// The screen with `actions` applied in order, each by the rule the server applies to it.
    ///
    /// Deletes regroup the rows left as the server will (`RowRemoval`: neighbours join, and a row
    /// the rows cannot tell exactly stays out of sight until the server's transition brings it),
    /// so the screen never shows a row the server will not send. Rows only disappear, join or
    /// change flags, so the result keeps the API's order and `ListDiff` takes its ordered fast path.
    public func applying(_ actions: some Sequence<ListAction>) -> ListScreen {
        var screen = self
        // Every delete is applied to the rows the server sent, so their effects add up as the server's would.
        var removal = RowRemoval(rows: rows, hasMore: hasMore, tz: view.tz)
        var changed = false
        for action in actions {
            changed = true
            screen.apply(action, to: &removal)
        }
        guard changed else { return screen }
        screen.rows = removal.shown
        screen.syncRowFlags()
        return screen
    }

    private mutating func apply(_ action: ListAction, to removal: inout RowRemoval) {
        switch action.intent {
        case .setEditing(let editing):
            state = state.settingEditing(editing).state
        case .reveal(let rowId, let revealed):
            state = state.revealing(rowId: rowId, revealed: revealed).state
        case .release(let rowId, _):
            state = state.revealing(rowId: rowId, revealed: action.outcome == .open).state
        case .deleteRow(let rowId, _):
            let ids: [String]
            if action.view.filter == view.filter && action.view.tz == view.tz {
                // The server deletes the row as it groups it when the request lands (a call that
                // joined it since goes too); no such row, and the delete will be a 404.
                guard let row = removal.entries.first(where: { $0.row.id == rowId })?.row else { return }
                ids = row.callIds
            } else {
                // Another view groups other rows: the calls the row had there.
                ids = action.callIds
            }
            removal.remove(ids)
            state = state.removingCalls(ids).state
        case .clear:
            // The server deletes every call it holds when the clear lands, including ones this
            // screen has not seen yet: hide them all until the clear retires.
            removal = RowRemoval(rows: [], hasMore: false, tz: view.tz)
            hasMore = false
            state.revealedRowId = nil
        case .markSeen(let through):
            unseenMissed = unseenMissed.map { min($0, Self.missedCalls(in: removal.shown, after: through)) }
        }
    }

    /// The missed calls of `rows` newer than `through`, as far as rows tell: a missed row holds
    /// only missed calls and says only its newest call's time, so a row newer than `through`
    /// counts all its calls (an upper bound the server's transition corrects) and an older one
    /// none. Calls beyond the window are older than every row shown, so marking through the
    /// newest row's time, what a screen that was looked at does, drops the badge to 0 exactly.
    static func missedCalls(in rows: [Row], after through: Int64) -> Int {
        rows.reduce(0) { total, row in row.missed && row.timestamp > through ? total + row.count : total }
    }

    /// Rewrites each row's `revealed` and `editing` to match `state`, as the server writes them.
    private mutating func syncRowFlags() {
        for index in rows.indices {
            let revealed = rows[index].id == state.revealedRowId
            if rows[index].revealed != revealed { rows[index].revealed = revealed }
            if rows[index].editing != state.editing { rows[index].editing = state.editing }
        }
    }

    /// Whether what `action` asked for is what this screen shows.
    public func shows(_ action: ListAction) -> Bool {
        switch action.intent {
        case .setEditing(let editing):
            return state.editing == editing
        case .reveal(let rowId, let revealed):
            return (state.revealedRowId == rowId) == revealed
        case .release(let rowId, _):
            return (state.revealedRowId == rowId) == (action.outcome == .open)
        case .deleteRow(let rowId, _):
            let gone = Set(action.callIds + [rowId])
            return !rows.contains { gone.contains($0.id) || $0.callIds.contains(where: gone.contains) }
        case .clear:
            let gone = Set(action.callIds)
            return !rows.contains { $0.callIds.contains(where: gone.contains) }
        case .markSeen:
            // The mark never moves back: no other device can undo it (a newer missed call is not an undo).
            return true
        }
    }
}

extension ListAction {
    /// Whether `later`, an own action taken after this one, undoes what this one showed: then a
    /// screen that no longer shows this action's effect is the user's doing, not another device's.
    func isSuperseded(by later: ListAction) -> Bool {
        switch (intent, later.intent) {
        case (.setEditing, .setEditing):
            return true
        case (.reveal, .reveal), (.reveal, .release), (.release, .reveal), (.release, .release):
            return true
        case (.reveal, .setEditing(false)), (.release, .setEditing(false)), (.reveal, .clear), (.release, .clear):
            return true
        case (.reveal, .deleteRow), (.release, .deleteRow):
            return rowId.map { later.callIds.contains($0) || later.rowId == $0 } ?? false
        default:
            return false
        }
    }
}
