import RecentsCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A list screen that shows own actions at once: the server's view at its version plus the own
/// actions the server has not shown yet, applied in order.
///
/// What it shows is always `ListScreen(server).applying(pending)`, recomputed after every change
/// (Replicache rebases pending mutations the same way): an own action updates the screen within
/// the frame; a server transition moves the server's view, and the screen gets only the batch
/// update from what it showed to the new screen, so a confirmed own action does not animate a
/// second time. An action retires when the server's view reaches the version its answer named;
/// a refusal, or another device's later change undoing it, rolls it back with an update and an
/// `ActionNotice`. Every update is between two screens this model showed, so it passes
/// `BatchUpdateValidator`.
public struct OptimisticListModel: Sendable, Hashable {
    /// An own action on screen, and where the server put it once it answered.
    public struct Pending: Sendable, Hashable {
        /// The action.
        public var action: ListAction
        /// The version and epoch the server's answer named, once it answered.
        public var landed: WriteReply?

        init(action: ListAction) { self.action = action }
    }

    /// The list the screen shows.
    public let list: String
    /// The rules releases are decided by (`RecentsClient.rules()`).
    public var rules: RecentsRules
    /// The server's view: what `follow` resumes from.
    public private(set) var server: ListModel
    /// Own actions not yet retired (the server has not answered, or its view is older than the answer), oldest first.
    public private(set) var pending: [Pending] = []
    /// What the screen shows.
    public private(set) var screen = ListScreen()

    /// An empty screen of `list` for `view`; it shows own actions at once and rows once a transition arrives.
    public init(list: String, view: ViewParameters = .default, rules: RecentsRules = .telegram) {
        self.list = list
        self.rules = rules
        self.server = ListModel(view: view)
    }

    /// The rows shown, newest first.
    public var rows: [Row] { screen.rows }
    /// The row ids shown (a diffable data source's items).
    public var rowIds: [String] { screen.rows.map(\.id) }
    /// The edit mode shown.
    public var editing: Bool { screen.state.editing }
    /// The open row shown.
    public var revealedRowId: String? { screen.state.revealedRowId }
    /// Whether rows exist beyond the window.
    public var hasMore: Bool { screen.hasMore }
    /// The view the rows belong to.
    public var view: ViewParameters { server.view }
    /// The missed-calls badge shown: the server's, lowered at once by a pending `markSeen`
    /// (nil until a server that counts it answers).
    public var unseenMissed: Int? { screen.unseenMissed }

    // MARK: - Own actions

    /// Applies an own action to the screen now; queue `action` of the result to send it.
    ///
    /// `id` becomes the action's `Idempotency-Key`. A release is decided here, by `rules`, on
    /// the row's options as shown; a delete remembers the row's calls as shown.
    public mutating func perform(_ intent: ListIntent, id: String = UUID().uuidString) -> PerformedAction {
        let before = screen
        var action = ListAction(id: id, list: list, intent: intent, view: server.view)
        var decision: GestureDecision?
        var selected: RowOption?
        switch intent {
        case .release(let rowId, let gesture):
            let options = screen.rows.first { $0.id == rowId }?.options ?? rules.rowOptions
            let decided = gesture.decide(optionCount: options.count, rule: rules.gesture)
            action.outcome = decided.outcome
            selected = decided.selectedOptionIndex.flatMap { options.indices.contains($0) ? options[$0] : nil }
            decision = decided
        case .deleteRow(let rowId, _):
            action.callIds = screen.rows.first { $0.id == rowId }?.callIds ?? [rowId]
        case .clear:
            action.callIds = screen.rows.flatMap(\.callIds)
        case .setEditing, .reveal, .markSeen:
            break
        }
        pending.append(Pending(action: action))
        rebase()
        return PerformedAction(
            action: action, update: .between(before, server.view, and: screen, server.view), decision: decision,
            selectedOption: selected)
    }

    /// Puts actions that were waiting (an `ActionQueue`'s, after a restart) back on screen.
    ///
    /// Actions of other lists and actions already pending are skipped.
    public mutating func restore(_ actions: [ListAction]) -> BatchUpdate {
        let before = screen
        let known = Set(pending.map(\.action.id))
        for action in actions where action.list == list && !known.contains(action.id) {
            pending.append(Pending(action: action))
        }
        rebase()
        return .between(before, server.view, and: screen, server.view)
    }

    // MARK: - The server

    /// Applies a server transition to the server's view, retires the own actions it now shows,
    /// and returns the update from what the screen showed to the new screen.
    ///
    /// An `initial` transition is a full reload (`isFullReload`), with pending actions applied.
    /// - Throws: `ListModelError` when the transition does not fit the server's view; nothing
    ///   changes, and the caller should follow again from nothing (an `initial` transition).
    public mutating func apply(_ event: TransitionEvent) throws(ListModelError) -> Reconciliation {
        let before = screen
        let oldView = server.view
        _ = try server.apply(event)
        let notices = retire()
        rebase()
        let update: BatchUpdate =
            event.isInitial
            ? .reload(fromRows: before.rows.count, to: screen.rows, animation: TransitionAnimation(event.transition))
            : .between(before, oldView, and: screen, server.view)
        return Reconciliation(update: update, notices: notices)
    }

    /// Takes the badge of a rows reply (`RecentsClient.rows(of:view:)`) of this list into the
    /// server's view, unless it is older than that view; a pending `markSeen` still lowers it.
    /// Returns whether the badge shown changed.
    @discardableResult
    public mutating func noteBadge(of page: RowsPage) -> Bool {
        let before = screen.unseenMissed
        guard page.list == list, server.noteBadge(of: page) else { return false }
        rebase()
        return screen.unseenMissed != before
    }

    /// Feeds an `ActionQueue`'s outcome in: a landed action retires once the server's view
    /// reaches its version; a refused one rolls back now.
    public mutating func handle(_ outcome: ActionOutcome) -> Reconciliation {
        switch outcome {
        case .landed(let action, let version, let epoch):
            return landed(action.id, version: version, epoch: epoch)
        case .refused(let action, let problem):
            return refused(action.id, problem: problem)
        }
    }

    /// Notes that the server wrote action `id` at `version`; it retires when the server's view gets there.
    public mutating func landed(_ id: String, version: Int, epoch: String) -> Reconciliation {
        guard let index = pending.firstIndex(where: { $0.action.id == id }) else { return unchanged }
        pending[index].landed = WriteReply(version: version, epoch: epoch)
        return reconciled { $0.retire() }
    }

    /// Rolls back action `id`, refused for good; a 404 (its row is gone) rolls back without a notice.
    public mutating func refused(_ id: String, problem: Problem) -> Reconciliation {
        guard let index = pending.firstIndex(where: { $0.action.id == id }) else { return unchanged }
        let action = pending.remove(at: index).action
        return reconciled { _ in problem.status == 404 ? [] : [ActionNotice(action: action, reason: .refused(problem))]
        }
    }

    // MARK: - Rebasing

    /// The screen recomputed from the server's view and the pending actions.
    private mutating func rebase() {
        screen = ListScreen(server).applying(pending.map(\.action))
    }

    /// Runs `change`, rebases, and returns the update from the old screen and the notices.
    private mutating func reconciled(_ change: (inout OptimisticListModel) -> [ActionNotice]) -> Reconciliation {
        let before = screen
        let notices = change(&self)
        rebase()
        return Reconciliation(update: .between(before, server.view, and: screen, server.view), notices: notices)
    }

    /// An empty update of the current screen.
    private var unchanged: Reconciliation {
        Reconciliation(update: .between(screen, server.view, and: screen, server.view), notices: [])
    }

    /// Drops the landed actions the server's view includes; one the server's view no longer shows,
    /// and no later own action explains, was undone by another device: a notice.
    private mutating func retire() -> [ActionNotice] {
        guard let version = server.version, let epoch = server.epoch else { return [] }
        let serverScreen = ListScreen(server)
        var notices: [ActionNotice] = []
        var kept: [Pending] = []
        for (index, entry) in pending.enumerated() {
            guard let landed = entry.landed, landed.epoch != epoch || landed.version <= version else {
                kept.append(entry)
                continue
            }
            // An answer from another epoch belongs to a database that is gone: nothing to show.
            let later = pending[(index + 1)...].map(\.action)
            if landed.epoch == epoch && !serverScreen.shows(entry.action)
                && !later.contains(where: entry.action.isSuperseded(by:))
            {
                notices.append(ActionNotice(action: entry.action, reason: .overridden))
            }
        }
        pending = kept
        return notices
    }
}
