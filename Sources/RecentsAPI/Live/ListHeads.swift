import Synchronization
import SystemSupport

/// The current version of lists this process has seen written or read, kept in memory so the
/// hot read (`GET rows` on an unchanged list) can be answered from the cache on the event loop
/// without asking SQLite.
///
/// Updated by the store's commit hook before any write is acknowledged, so a client that got an
/// acknowledgement never reads an older version afterwards. Versions only grow: a reader that
/// observes an older snapshot cannot move a head backwards.
///
/// Bounded by a count of lists (least recently used go first), since any client can name new
/// lists. A forgotten head only costs a store read. To keep versions from going backwards after
/// an eviction, a read may bring a forgotten list back only if nothing was evicted since the read
/// began (`readMark`): otherwise its snapshot may predate a commit whose head was evicted.
final class ListHeads: Sendable {
    /// Taken before a store read, handed back with what the read saw.
    struct ReadMark: Sendable, Equatable {
        fileprivate var evictions: Int
    }

    private let versions: Mutex<LRUTable<String, Int64>>

    /// Heads for at most `maximumLists` lists.
    init(maximumLists: Int) {
        versions = Mutex(LRUTable(capacity: maximumLists))
    }

    /// The newest version known for `list`, or nil when this process does not know it (never
    /// seen, or forgotten to make room).
    func version(of list: String) -> Int64? {
        versions.withLock { $0.value(for: list) }
    }

    /// Lists held now.
    var count: Int { versions.withLock { $0.count } }

    /// What to pass to `observe(_:version:readSince:)` for a read that starts now.
    var readMark: ReadMark { versions.withLock { ReadMark(evictions: $0.evictions) } }

    /// Records the version a read saw (the larger one wins); a list not held is added only when
    /// no head was evicted since `mark` was taken.
    func observe(_ list: String, version: Int64, readSince mark: ReadMark) {
        guard version > 0 else { return }
        versions.withLock { heads in
            if let known = heads.peek(list) {
                if known < version { heads.set(version, for: list, cost: 1) }
            } else if heads.evictions == mark.evictions {
                heads.set(version, for: list, cost: 1)
            }
        }
    }

    /// Records the versions a commit produced: authoritative, so always kept.
    func observe(_ commit: [String: Int64]) {
        versions.withLock { heads in
            for (list, version) in commit where (heads.peek(list) ?? 0) < version {
                heads.set(version, for: list, cost: 1)
            }
        }
    }
}
