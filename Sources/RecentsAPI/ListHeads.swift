import Synchronization

/// The current version of every list this process has seen written or read, kept in memory so
/// the hot read (`GET rows` on an unchanged list) can be answered from the cache on the event
/// loop without asking SQLite.
///
/// Updated by the store's commit hook before any write is acknowledged, so a client that got an
/// acknowledgement never reads an older version afterwards. Versions only grow: a reader that
/// observes an older snapshot cannot move a head backwards.
final class ListHeads: Sendable {
    private let versions = Mutex<[String: Int64]>([:])

    /// The newest version known for `list`, or nil when this process has not seen it exist.
    func version(of list: String) -> Int64? {
        versions.withLock { $0[list] }
    }

    /// Records versions seen by a commit or a read (the larger one wins).
    func observe(_ list: String, version: Int64) {
        guard version > 0 else { return }
        versions.withLock { heads in
            if let known = heads[list], known >= version { return }
            heads[list] = version
        }
    }

    /// Records the versions a commit produced.
    func observe(_ commit: [String: Int64]) {
        versions.withLock { heads in
            for (list, version) in commit where (heads[list] ?? 0) < version {
                heads[list] = version
            }
        }
    }
}
