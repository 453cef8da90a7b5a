/// What the store tells the layer above it, and asks of it: one subscription
/// (`ListStore.subscribe(_:)`) instead of two closures that would tie the two in a loop.
///
/// The store holds its observer weakly: the observer (the API's live updates) holds the store to
/// compute what changed, and the store must not keep its own consumer alive.
public protocol CommitObserver: AnyObject, Sendable {
    /// A durable commit, before any of its writes is acknowledged, with the new version of each
    /// list it changed. Called on a store thread (keep it short). A shared store (several writer
    /// connections, other instances) may tell a list's versions out of order: keep the larger.
    func storeCommitted(_ versions: [String: Int64])

    /// The lists this process watches (parked long-polls, open event streams), each with the
    /// oldest version its watchers have seen. A shared store (`ListStore.isShared`) looks them up
    /// in the database at least every 5 seconds, and whenever its notifications may have been
    /// lost, and reports each that moved past it through `storeCommitted`: a lost notification
    /// delays a wake-up and never loses it. Called on a store thread; other stores never call it.
    func watchedLists() -> [String: Int64]
}

/// The store's weak reference to its observer, kept in a `Mutex`.
struct WeakCommitObserver: Sendable {
    weak var observer: (any CommitObserver)?
}
