/// What `RecentsClient.follow` reports of its connection while it reconnects, for an app's
/// "Connecting…" title (as Telegram shows one in place of the list's) or a line in a terminal.
public enum FollowLink: Sendable, Hashable {
    /// An attempt failed with `error`; the next one starts in `delay` seconds. `attempt` counts
    /// the failures in a row: 1, 2, …
    case retrying(attempt: Int, delay: Double, error: RecentsClientError)
    /// The server answers again after failures (the event stream opened, or a long-poll answered).
    case restored
}
