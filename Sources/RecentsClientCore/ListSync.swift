import RecentsCore

/// One list kept in step with the server on a screen: own actions shown at once and sent through
/// an offline queue, the server's transitions followed, and both reconciled (the web page's `ListSync`).
///
/// It wires the parts an app would otherwise wire itself, and in the one order that is right:
/// an action is rendered before it is queued, queued in the order the user acted, and every
/// answer and transition goes through `OptimisticListModel`, so the screen is always the server's
/// view with the pending actions applied. `render` receives each update after `model` changed:
/// apply it to the table in the same main-actor turn.
@MainActor
public final class ListSync {
    /// The client the list is followed and written through.
    public let client: RecentsClient
    /// The actions waiting to be sent, saved in the store given at creation.
    public let queue: ActionQueue
    /// The screen's model: `model.rows` is what the table shows.
    public private(set) var model: OptimisticListModel
    /// Shows a batch update at once; the data source reads `model.rows`.
    public var render: (BatchUpdate) -> Void = { _ in }
    /// Shows a short notice, e.g. "Delete was undone on another device."
    public var notify: (ActionNotice) -> Void = { _ in }
    /// Hears of each failed attempt to reach the server and of the first answer after them
    /// (show "Connecting…" in between); set it before `run`.
    public var onLink: (@Sendable (FollowLink) -> Void)?
    /// The queue could not save an action: it is still sent, but would not survive a restart.
    public var saveFailed: (any Error) -> Void = { _ in }
    /// The last enqueue, which the next one waits for.
    private var enqueued: Task<Void, Never>?

    /// A sync of `list` seen in `view`, its queue saved in `store`.
    /// - Throws: the store's error when the actions saved last cannot be read.
    public init(client: RecentsClient, list: String, view: ViewParameters, store: any ActionStore) throws {
        self.client = client
        self.queue = try ActionQueue(client: client, store: store)
        self.model = OptimisticListModel(list: list, view: view)
    }

    /// The user did something: the screen shows it now, the queue sends it when the link allows.
    @discardableResult
    public func perform(_ intent: ListIntent) -> PerformedAction {
        let performed = model.perform(intent)
        take(performed)
        return performed
    }

    /// A tap on row `rowId` (nil: the list's empty area), before the app acts on it: true when it
    /// only closed the open row, and the app then does nothing else with it.
    public func tapClosesOpenRow(_ rowId: String?) -> Bool {
        guard let performed = model.tap(onRow: rowId) else { return false }
        take(performed)
        return true
    }

    /// The user began scrolling the list: an open row closes.
    public func scrollBegan() {
        if let performed = model.beginScrolling() { take(performed) }
    }

    private func take(_ performed: PerformedAction) {
        render(performed.update)
        // Each enqueue waits for the one before, so the queue keeps the order the user acted in.
        enqueued = Task { [previous = enqueued, queue] in
            await previous?.value
            do {
                try await queue.enqueue(performed.action)
            } catch {
                self.saveFailed(error)
            }
        }
    }

    /// Runs until cancelled: the rules, the actions that waited (after a restart), then the
    /// server's transitions and the queue's answers, each reconciled into the screen.
    public func run() async {
        if let rules = try? await client.rules() { model.rules = rules }
        render(model.restore(await queue.waiting))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.follow() }
            group.addTask { await self.queue.run { outcome in await self.handle(outcome) } }
        }
    }

    private func handle(_ outcome: ActionOutcome) { show(model.handle(outcome)) }

    private func show(_ reconciliation: Reconciliation) {
        render(reconciliation.update)
        reconciliation.notices.forEach(notify)
    }

    private func follow() async {
        var resuming: ListModel? = model.server
        while !Task.isCancelled {
            do {
                let events = client.follow(list: model.list, view: model.view, resuming: resuming, onLink: onLink)
                for try await event in events {
                    show(try model.apply(event))
                }
            } catch is ListModelError {
                resuming = nil  // a transition that does not fit: start again from a full load
            } catch {
                return  // a bad list name or view: nothing a retry fixes
            }
        }
    }
}
