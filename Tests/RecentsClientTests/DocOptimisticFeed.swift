import RecentsClient
import RecentsCore

// The "optimistic feed" snippet of docs/CLIENTS.md, verbatim (DocSnippetTests checks that it matches).

@MainActor
final class OptimisticFeed {
    let client: RecentsClient
    let queue: ActionQueue
    private(set) var model: OptimisticListModel
    /// Shows a batch update at once; the data source reads `model.rows`.
    var render: (BatchUpdate) -> Void = { _ in }
    /// Shows a short notice, e.g. "Delete was undone on another device."
    var notify: (ActionNotice) -> Void = { _ in }
    private var enqueued: Task<Void, Never>?

    init(client: RecentsClient, list: String, view: ViewParameters, store: any ActionStore) throws {
        self.client = client
        self.queue = try ActionQueue(client: client, store: store)
        self.model = OptimisticListModel(list: list, view: view)
    }

    /// The user did something: the screen shows it now, the queue sends it when the link allows.
    @discardableResult
    func perform(_ intent: ListIntent) -> PerformedAction {
        let performed = model.perform(intent)
        take(performed)
        return performed
    }

    /// A tap on row `rowId` (nil: the list's empty area), before the app acts on it: true when it
    /// only closed the open row, and the app then does nothing else with it.
    func tapClosesOpenRow(_ rowId: String?) -> Bool {
        guard let performed = model.tap(onRow: rowId) else { return false }
        take(performed)
        return true
    }

    /// The user began scrolling the list: an open row closes.
    func scrollBegan() {
        if let performed = model.beginScrolling() { take(performed) }
    }

    private func take(_ performed: PerformedAction) {
        render(performed.update)
        // Each enqueue waits for the one before, so the queue keeps the order the user acted in.
        enqueued = Task { [previous = enqueued, queue] in
            await previous?.value
            try? await queue.enqueue(performed.action)
        }
    }

    /// Runs until cancelled: the rules, the actions that waited (after a restart), then the
    /// server's transitions and the queue's answers, each reconciled into the screen.
    func run() async {
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
                for try await event in client.follow(list: model.list, view: model.view, resuming: resuming) {
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
