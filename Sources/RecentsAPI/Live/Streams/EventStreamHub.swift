import Synchronization

/// Open event streams, by list: the records a commit looks at to know whom to tell. A stream
/// costs no thread; it stays here from its request until it closes.
final class EventStreamHub: Sendable {
    private struct State {
        var byList: [String: [UInt64: EventStream]] = [:]
        var count = 0
        var nextId: UInt64 = 1
    }

    private let state = Mutex(State())

    /// Streams open now (for /metrics and tests).
    var count: Int { state.withLock { $0.count } }

    /// A fresh stream id.
    func makeId() -> UInt64 {
        state.withLock { state in
            defer { state.nextId += 1 }
            return state.nextId
        }
    }

    /// Adds `stream` to its list's streams, unless the list has `maximumPerList` already (false).
    func add(_ stream: EventStream, maximumPerList: Int) -> Bool {
        state.withLock { state in
            if (state.byList[stream.list]?.count ?? 0) >= maximumPerList { return false }
            if state.byList[stream.list, default: [:]].updateValue(stream, forKey: stream.id) == nil {
                state.count += 1
            }
            return true
        }
    }

    /// The open streams of `list` (they stay registered).
    func streams(of list: String) -> [EventStream] {
        state.withLock { state in state.byList[list].map { Array($0.values) } ?? [] }
    }

    /// Every open stream (the heartbeat sweep).
    func all() -> [EventStream] {
        state.withLock { state in state.byList.values.flatMap(\.values) }
    }

    /// Each list with open streams and the oldest version their clients' views show (the store's
    /// re-check); a stream still computing its first event is left out.
    func watched() -> [String: Int64] {
        // Copied out first: a stream's lock is never taken under the hub's.
        let all = state.withLock { state in state.byList.values.flatMap(\.values) }
        var oldest: [String: Int64] = [:]
        for stream in all {
            guard let version = stream.shownVersion else { continue }
            oldest[stream.list] = min(oldest[stream.list] ?? version, version)
        }
        return oldest
    }

    /// Forgets a stream that closed.
    func remove(_ stream: EventStream) {
        state.withLock { state in
            guard state.byList[stream.list]?.removeValue(forKey: stream.id) != nil else { return }
            state.count -= 1
            if state.byList[stream.list]?.isEmpty == true { state.byList[stream.list] = nil }
        }
    }
}
