import Foundation
import RecentsClient
import RecentsCore

// The "start a ListSync" snippet of docs/CLIENTS.md, verbatim (DocSnippetTests checks that it matches).

/// Starts keeping `list` in step on a screen; cancel the task when the screen goes away.
@MainActor
func startSync(client: RecentsClient, list: String, actions: URL, title: @escaping @Sendable (String) -> Void)
    throws -> (ListSync, Task<Void, Never>)
{
    // The queue lives in `actions` (one JSON file): actions taken offline survive the app being killed.
    let sync = try ListSync(client: client, list: list, view: .default, store: FileActionStore(url: actions))
    sync.onLink = { link in
        switch link {
        case .retrying: title("Connecting…")
        case .restored: title("Recents")
        }
    }
    sync.saveFailed = { error in print("not saved, so lost if the app is killed now: \(error)") }
    return (sync, Task { await sync.run() })
}
