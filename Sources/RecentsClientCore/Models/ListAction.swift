import RecentsCore

/// What a user does to a list on screen, each one a write of `docs/API.md`.
public enum ListIntent: Codable, Sendable, Hashable {
    /// Edit (`true`) or Done (`false`): `PUT …/editing`.
    case setEditing(Bool)
    /// Opens or closes a row's options: `PUT …/rows/{rowId}/reveal`.
    case reveal(rowId: String, revealed: Bool)
    /// The release of a swipe on a row: `POST …/rows/{rowId}/gesture`.
    case release(rowId: String, gesture: Gesture)
    /// Delete on a row, for me or for everyone: `POST …/rows/{rowId}/options/delete`.
    case deleteRow(rowId: String, scope: DeletionScope)
    /// Delete all: `POST …/clear`.
    case clear(scope: DeletionScope)
    /// The missed calls up to `through` (Unix seconds) seen, on every device: `POST …/seen`.
    case markSeen(through: Int64)
}

/// One own action as the optimistic model shows it and the offline queue keeps and sends it.
///
/// Everything the request needs is fixed when the action is taken (the view a deleted row belongs
/// to, the release's local decision), so a resend after a restart sends the same bytes under the
/// same `Idempotency-Key`, and the server either writes it once or replays its first answer.
public struct ListAction: Codable, Sendable, Hashable, Identifiable {
    /// The action's `Idempotency-Key`, unique per action.
    public var id: String
    /// The list it writes to.
    public var list: String
    /// What the user did.
    public var intent: ListIntent
    /// The view shown when it was taken: a row's id and calls are the view's (`options/delete` sends it).
    public var view: ViewParameters
    /// The calls it removes as the screen showed them (a deleted row's, or every shown row's for a clear).
    public var callIds: [String]
    /// A release's decision, taken on the client by the server's rule.
    public var outcome: GestureOutcome?

    /// Creates an action.
    public init(
        id: String, list: String, intent: ListIntent, view: ViewParameters, callIds: [String] = [],
        outcome: GestureOutcome? = nil
    ) {
        self.id = id
        self.list = list
        self.intent = intent
        self.view = view
        self.callIds = callIds
        self.outcome = outcome
    }

    /// The row the action names, if any.
    public var rowId: String? {
        switch intent {
        case .reveal(let rowId, _), .release(let rowId, _), .deleteRow(let rowId, _): return rowId
        case .setEditing, .clear, .markSeen: return nil
        }
    }
}
