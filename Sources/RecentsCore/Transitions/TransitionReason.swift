/// Why a transition happens; picks how Telegram's `ListView` would animate it.
public enum TransitionReason: String, Codable, Sendable, Hashable, CaseIterable {
    /// The first load of a view (no `since`).
    case initial
    /// The filter changed (All / Missed tab): a crossfading reload.
    case reloadAnimated
    /// The window or time zone changed: a plain reload.
    case reload
    /// The list itself changed under the same view: animated inserts and deletes.
    case interactiveChanges
}

/// A `ListViewDeleteAndInsertOptions` flag of Telegram's list view.
public enum TransitionOption: String, Codable, Sendable, Hashable, CaseIterable {
    /// Apply without waiting for off-screen layout.
    case lowLatency
    /// Apply in the same run-loop pass (no async item layout).
    case synchronous
    /// Fade rows in and out.
    case animateAlpha
    /// Animate inserted rows into place.
    case animateInsertion
    /// Crossfade the whole list (a tab switch).
    case animateCrossfade
    /// Load images and other resources synchronously so nothing blinks.
    case preferSynchronousResourceLoading
}

/// The direction an inserted row slides in from (Telegram's `ListViewItemOperationDirectionHint`).
public enum DirectionHint: String, Codable, Sendable, Hashable, CaseIterable {
    /// Slides in from below, moving up.
    case up
    /// Slides in from above, moving down (new calls at the top).
    case down
}
