import RecentsClient

// The badge snippet of docs/CLIENTS.md, verbatim (DocSnippetTests checks that it matches).

/// The Calls tab's badge (e.g. a `tabBarItem.badgeValue`, set in `render`): nil when none is unseen.
@MainActor
func badge(of sync: ListSync) -> String? {
    sync.model.unseenMissed.flatMap { $0 > 0 ? "\($0)" : nil }
}

/// The list is on screen: every missed call it shows is seen, on every device.
@MainActor
func markShownSeen(_ sync: ListSync) {
    if let newest = sync.model.rows.first?.timestamp { sync.perform(.markSeen(through: newest)) }
}
