import HTTPServer
import RecentsAuth
import RecentsCore
import RecentsStore
import Synchronization
import SystemSupport

/// The API: routes every endpoint of the contract to the store and Core, keeps the in-memory
/// heads and view cache, and runs long-polls.
final class RecentsService: Sendable {
    let store: any ListStore
    let epoch: String
    let logger: Logger
    let corsOrigin: String?
    /// Verifies bearer tokens; nil when auth is off.
    let verifier: JWTVerifier?
    let heads: ListHeads
    let cache: ViewCache
    let hub: LongPollHub
    /// Open `…/events` streams and how they keep alive and end.
    let eventStreams = EventStreamHub()
    let eventSettings: EventStreamSettings
    let timer = DeadlineTimer()
    let metrics = APIMetrics()
    /// The server, once started, for the connection gauge of /metrics.
    let server = Mutex<HTTPServer?>(nil)
    /// Writes handed to the store and not yet answered.
    let pendingWrites = Atomic<Int>(0)
    /// Beyond this many pending writes, new ones get 503 `overloaded` instead of queueing
    /// without bound (each costs memory until its group commit).
    let maximumPendingWrites: Int
    /// Longest a long-poll is held (seconds); a larger `wait` is clamped to it.
    let maximumWait: Int

    init(
        store: any ListStore, logger: Logger, corsOrigin: String?, verifier: JWTVerifier? = nil,
        maximumPendingWrites: Int = 8192, limits: MemoryLimits = MemoryLimits(),
        eventSettings: EventStreamSettings = EventStreamSettings()
    ) {
        self.verifier = verifier
        self.maximumPendingWrites = maximumPendingWrites
        self.eventSettings = eventSettings
        self.maximumWait = limits.maxWait
        self.heads = ListHeads(maximumLists: limits.listHeads)
        self.cache = ViewCache(maximumBytes: limits.viewCacheBytes)
        self.store = store
        self.epoch = store.epoch
        self.logger = logger
        self.corsOrigin = corsOrigin
        self.hub = LongPollHub(heads: heads, maximumWaiters: limits.longPolls)
    }

    // MARK: - Plumbing

    /// Runs a read body on a store reader and hands its value to `reply` (errors answer the request).
    func read<T: Sendable>(
        _ exchange: Exchange, _ body: @escaping @Sendable (any StoreReader) throws -> T,
        reply: @escaping @Sendable (T) -> Void
    ) {
        store.read(body) { result in
            switch result {
            case .success(let value): reply(value)
            case .failure(let error): exchange.fail(error)
            }
        }
    }

    /// Called by the store after each durable commit, before any of its writes is acknowledged:
    /// heads move first (so reads after an acknowledgement see the write), then long-polls wake.
    func committed(_ versions: [String: Int64]) {
        heads.observe(versions)
        refreshStreams(versions)
        for list in versions.keys {
            let waiters = hub.takeAll(of: list)
            guard !waiters.isEmpty else { continue }
            // Thousands of clients waiting on the same list, version and view share one
            // computation and one encoded body.
            for (_, group) in Dictionary(grouping: waiters, by: \.query) {
                wake(group)
            }
        }
    }

    /// The lists parked long-polls and open streams watch, each with the oldest version its
    /// watchers have seen: what a shared store re-checks in the database (`ListStore.watchedLists`).
    func watchedVersions() -> [String: Int64] {
        hub.watched().merging(eventStreams.watched(), uniquingKeysWith: min)
    }

    /// Answers parked long-polls with nothing to do, for shutdown (contract: 200, nothing to do).
    func answerParkedRequests() {
        for waiter in hub.close() {
            waiter.exchange.json(200, waiter.idleAnswer)
        }
        timer.stop()
    }
}
