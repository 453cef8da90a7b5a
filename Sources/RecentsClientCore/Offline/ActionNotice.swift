import RecentsCore

/// Why an own action no longer shows: something short the app can put in a banner.
public struct ActionNotice: Sendable, Hashable {
    /// What undid the action.
    public enum Reason: Sendable, Hashable {
        /// The server refused it (403, 409, 422, …), with its problem+json.
        case refused(Problem)
        /// A change from another device, landing after it, undid what it showed.
        case overridden
    }

    /// The action that was rolled back.
    public var action: ListAction
    /// What undid it.
    public var reason: Reason

    /// Creates a notice.
    public init(action: ListAction, reason: Reason) {
        self.action = action
        self.reason = reason
    }

    /// One short sentence for the user, e.g. "Delete was undone on another device."
    public var message: String {
        switch reason {
        case .overridden:
            return "\(action.intent.title) was undone on another device."
        case .refused(let problem) where problem.status == 403:
            return "\(action.intent.title) is not allowed for this list."
        case .refused:
            return "\(action.intent.title) could not be done."
        }
    }
}

extension ListIntent {
    /// The action's name as a screen would say it.
    public var title: String {
        switch self {
        case .setEditing(let editing): return editing ? "Edit" : "Done"
        case .reveal(_, let revealed): return revealed ? "Opening the row" : "Closing the row"
        case .release: return "The swipe"
        case .deleteRow(_, let scope): return scope == .everyone ? "Delete for everyone" : "Delete"
        case .clear(let scope): return scope == .everyone ? "Delete all for everyone" : "Delete all"
        case .markSeen: return "Marking missed calls seen"
        }
    }
}

/// An own action just applied to the screen: the update to show now and the action to queue.
public struct PerformedAction: Sendable, Hashable {
    /// The action, to hand to an `ActionQueue`.
    public var action: ListAction
    /// The screen's batch update.
    public var update: BatchUpdate
    /// A release's decision (where the row settles), decided by the server's rule.
    public var decision: GestureDecision?
    /// The option a release selected (Delete, on a full swipe); the app confirms it as `.deleteRow`.
    public var selectedOption: RowOption?
}

/// What a server transition or an answer to an own action did to the screen.
public struct Reconciliation: Sendable, Hashable {
    /// The screen's batch update (empty when the screen already showed it).
    public var update: BatchUpdate
    /// Own actions rolled back and worth telling the user about.
    public var notices: [ActionNotice]
}

/// The server's answer to one sent action, as an `ActionQueue` reports it.
public enum ActionOutcome: Sendable, Hashable {
    /// Written (or replayed under its `Idempotency-Key`) at `version` of `epoch`.
    case landed(ListAction, version: Int, epoch: String)
    /// Refused for good with this problem (404 when its row is gone).
    case refused(ListAction, Problem)

    /// The action answered.
    public var action: ListAction {
        switch self {
        case .landed(let action, _, _), .refused(let action, _): return action
        }
    }
}
