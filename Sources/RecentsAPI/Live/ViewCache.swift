import RecentsCore
import Synchronization
import SystemSupport

/// Encoded `GET rows` answers by (list, view parameters), each tagged with the list version it
/// shows. An entry is valid only while its version is the list's current one, so a write
/// invalidates it implicitly; entries for old versions are overwritten or evicted.
///
/// Bounded by bytes, not entries: one view can be 300 KB, so a count bound would let one client
/// grow memory by gigabytes. Over the bound the least recently used views go; a client only ever
/// sees a slower answer (a miss is a store read), never a different one.
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

    /// What the cache holds now (for tests and /metrics).
    struct Usage: Sendable, Equatable {
        var entries: Int
        var bytes: Int
        var evictions: Int
    }

    /// What an entry costs besides its body, etag and list name: the key, the version, the table's links.
    static let entryOverhead = 128

    private let table: Mutex<LRUTable<Key, Entry>>

    /// A cache whose entries add up to at most `maximumBytes` (bodies, etags, keys and bookkeeping).
    init(maximumBytes: Int) {
        table = Mutex(LRUTable(capacity: maximumBytes))
    }

    /// The bytes `entry` is charged for under `key`.
    static func cost(of entry: Entry, for key: Key) -> Int {
        entry.body.count + entry.etag.utf8.count + key.list.utf8.count + entryOverhead
    }

    /// The cached answer for `key` if it shows exactly `version` (a hit counts as a use).
    func entry(for key: Key, version: Int64) -> Entry? {
        table.withLock { table in
            guard let entry = table.value(for: key), entry.version == version else { return nil }
            return entry
        }
    }

    /// Stores an answer unless a newer one is already there.
    func store(_ entry: Entry, for key: Key) {
        let cost = Self.cost(of: entry, for: key)
        table.withLock { table in
            if let existing = table.peek(key), existing.version >= entry.version { return }
            table.set(entry, for: key, cost: cost)
        }
    }

    /// Entries, bytes and evictions so far.
    var usage: Usage {
        table.withLock { Usage(entries: $0.count, bytes: $0.totalCost, evictions: $0.evictions) }
    }
}
