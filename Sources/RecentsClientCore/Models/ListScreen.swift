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

    /// Creates a screen.
    public init(rows: [Row] = [], state: ListState = ListState(), hasMore: Bool = false) {
        self.rows = rows
        self.state = state
        self.hasMore = hasMore
    }

    /// The server's view as a `ListModel` holds it.
    public init(_ model: ListModel) {
        self.init(
            rows: model.rows, state: ListState(editing: model.editing, revealedRowId: model.revealedRowId),
            hasMore: model.hasMore)
    }

    /// The screen with `actions` applied in order, each by the rule the server applies to it.
    ///
    /// Rows only disappear or change flags, so the result keeps the API's order and `ListDiff`
    /// takes its ordered fast path. A deleted row's neighbours are not regrouped here (the client
    /// has rows, not calls); the server's transition does that when it arrives.
    public func applying(_ actions: some Sequence<ListAction>) -> ListScreen {
        var screen = self
        var changed = false
        for action in actions {
            changed = true
            screen.apply(action)
        }
        if changed { screen.syncRowFlags() }
        return screen
    }

    private mutating func apply(_ action: ListAction) {
        switch action.intent {
        case .setEditing(let editing):
            state = state.settingEditing(editing).state
        case .reveal(let rowId, let revealed):
            state = state.revealing(rowId: rowId, revealed: revealed).state
        case .release(let rowId, _):
            state = state.revealing(rowId: rowId, revealed: action.outcome == .open).state
        case .deleteRow(let rowId, _):
            let gone = Set(action.callIds + [rowId])
            rows.removeAll { gone.contains($0.id) || $0.callIds.contains(where: gone.contains) }
            state = state.removingCalls(gone).state
        case .clear:
            // The server deletes every call it holds when the clear lands, including ones this
            // screen has not seen yet: hide them all until the clear retires.
            rows.removeAll()
            hasMore = false
            state.revealedRowId = nil
        }
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
