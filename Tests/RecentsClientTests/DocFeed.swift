import RecentsClient
import RecentsCore

// The "follow loop" snippet of docs/CLIENTS.md, verbatim (DocSnippetTests checks that it matches).

@MainActor
final class RecentsFeed {
    let client: RecentsClient
    let list: String
    private(set) var model: ListModel
    /// Called with each event; it must call `model(apply:)` exactly once, inside its batch update.
    var render: (TransitionEvent) -> Void = { _ in }

    init(client: RecentsClient, list: String, view: ViewParameters) {
        self.client = client
        self.list = list
        self.model = ListModel(view: view)
    }

    /// Applies an event to the model; a transition that does not fit restarts the feed with a full load.
    func model(apply event: TransitionEvent) -> BatchUpdate? {
        do {
            return try model.apply(event)
        } catch {
            model = ListModel(view: model.view)
            needsReload = true
            return nil
        }
    }

    private var needsReload = false

    /// Follows the list until the task is cancelled; a tab switch is a new `run` with the new view.
    func run(view: ViewParameters) async {
        while !Task.isCancelled {
            needsReload = false
            do {
                for try await event in client.follow(list: list, view: view, resuming: model) {
                    render(event)
                    if needsReload { break }
                }
            } catch {
                return  // a bad list name or view: nothing a retry fixes; show it
            }
        }
    }
}
