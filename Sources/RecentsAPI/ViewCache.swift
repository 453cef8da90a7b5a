import RecentsCore
import Synchronization

/// Encoded `GET rows` answers by (list, view parameters), each tagged with the list version it
/// shows. An entry is valid only while its version is the list's current one, so a write
/// invalidates it implicitly; entries for old versions are overwritten or evicted.
final class ViewCache: Sendable {
    /// One cached answer.
    struct Entry: Sendable {
        var version: Int64
        var etag: String
        var body: [UInt8]
    }

    /// What an entry is cached under.
    struct Key: Hashable, Sendable {
        var list: String
        var parameters: ViewParameters
    }

    private let capacity: Int
    private let entries = Mutex<[Key: Entry]>([:])

    /// A cache holding at most `capacity` views.
    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The cached answer for `key` if it shows exactly `version`.
    func entry(for key: Key, version: Int64) -> Entry? {
        entries.withLock { entries in
            guard let entry = entries[key], entry.version == version else { return nil }
            return entry
        }
    }

    /// Stores an answer unless a newer one is already there.
    func store(_ entry: Entry, for key: Key) {
        entries.withLock { entries in
            if let existing = entries[key], existing.version >= entry.version { return }
            if entries[key] == nil, entries.count >= capacity {
                // Dropping an arbitrary half keeps eviction O(1) amortised; a miss only costs a read.
                let victims = entries.keys.prefix(capacity / 2)
                for victim in Array(victims) { entries[victim] = nil }
            }
            entries[key] = entry
        }
    }
}
