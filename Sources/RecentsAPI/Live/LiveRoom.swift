import Synchronization

/// How many long-lived requests (open event streams and parked long-polls) one list, and every
/// list together, may hold (issue 38), so that one token cannot take a shared limit from others.
///
/// Each list has its own caps (`--max-streams-per-list`, `--max-long-polls-per-list`): beyond them
/// 429 `too-many-live-requests`. All lists together may hold `--max-connections` less a reserve
/// (an eighth of it, at least one): beyond that 503 `overloaded`, so a pile of streams and polls
/// never takes the last connections, and `/healthz`, reads and writes still find one.
final class LiveRoom: Sendable {
    /// Open event streams one list may hold.
    let streamsPerList: Int
    /// Parked long-polls one list may hold.
    let longPollsPerList: Int
    /// Streams and parked long-polls of every list together.
    let total: Int
    /// How many each holds now (set once both exist: each counts itself in its own hub).
    private let counters = Mutex<[@Sendable () -> Int]>([])

    /// Seconds a client over its list's cap is told to wait: about when one of its long-polls
    /// ends (most are answered within seconds, all within `--max-wait`) or one of its tabs closes.
    static let retryAfterSeconds = 5

    init(limits: MemoryLimits, maxConnections: Int) {
        streamsPerList = limits.streamsPerList
        longPollsPerList = limits.longPollsPerList
        total = maxConnections - Self.reserve(of: maxConnections)
    }

    /// The connections kept for short requests out of `maxConnections`.
    static func reserve(of maxConnections: Int) -> Int { max(1, maxConnections / 8) }

    /// Counts what `counter` says among the long-lived requests held.
    func count(_ counter: @escaping @Sendable () -> Int) {
        counters.withLock { $0.append(counter) }
    }

    /// The refusal of one more long-lived request, nil while there is room for it.
    func refusal() -> APIError? {
        let held = counters.withLock { $0 }.reduce(0) { $0 + $1() }
        guard held >= total else { return nil }
        return APIError.overloaded(
            "\(held) event streams and long-polls are open, the most this server keeps beside room for other "
                + "requests; retry, or poll without wait")
    }
}

extension APIError {
    /// 429: the list already holds as many streams, or parked long-polls, as it may.
    static let tooManyLiveRequests = Problem(
        429, "too-many-live-requests", "Too many live requests", retryAfter: LiveRoom.retryAfterSeconds)

    /// The 429 of a list at its cap of `kind` (`event streams`, `parked long-polls`).
    static func listFull(_ list: String, kind: String, cap: Int) -> APIError {
        tooManyLiveRequests(
            "list '\(list)' already has \(cap) open \(kind), the most one list may hold; close one first")
    }
}
