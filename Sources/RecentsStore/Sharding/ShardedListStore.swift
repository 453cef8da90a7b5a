import Synchronization
import SystemSupport

/// Lists spread over several PostgreSQL databases (shards) by `Placement`: one `PGListStore` per
/// shard, each request run on the shard of the list it is addressed to (`read(in:)`,
/// `write(in:)`). A body that touches a list placed on another shard fails with
/// `CrossShardError` and writes nothing, except "Delete for everyone" reaching a peer's list
/// elsewhere: that goes into the shard's outbox with the request, and `OutboxDrainer` applies it
/// on the peer's shard after the commit.
///
/// Every shard serves under the first shard's epoch (`PGConnection.claimEpoch(fleet:)`), so a
/// list's versions mean the same wherever it lives. Bodies not addressed to a list (`read(_:)`,
/// `write(_:)`) run on the first shard and may touch only its lists.
public final class ShardedListStore: ListStore {
    /// The fleet's epoch: the first shard's, which every other shard shares.
    public let epoch: String
    /// The placement in use, followed from its file.
    public let follower: PlacementFollower
    /// One store per shard, in the placement's order.
    let stores: [any ListStore]
    private let names: [String]
    /// The per-shard observers the stores hold weakly.
    private let observers = Mutex<[ShardObserver]>([])
    /// Delivers every shard's outbox to the peers' shards.
    let drainer: OutboxDrainer

    /// A store over `stores` (opened on `follower`'s shards, in order); starts the drainer.
    init(follower: PlacementFollower, stores: [any ListStore], logger: Logger = Logger(level: .warn)) {
        self.follower = follower
        self.stores = stores
        self.names = follower.placement.shards.map(\.name)
        self.epoch = stores[0].epoch
        drainer = OutboxDrainer(stores: stores, follower: follower, logger: logger)
        drainer.start()
    }

    deinit { close() }

    /// Opens every shard the placement file at `path` names, the first one first (its epoch is
    /// the fleet's), and starts following the file (`PlacementFollower.interval`).
    /// - Throws: `StoreError.cannotOpen` naming the file or the shard and the reason, or
    ///   `MigrationError`.
    public static func open(
        placementFile path: String, _ configuration: StoreConfiguration, logger: Logger = Logger(level: .warn)
    ) throws -> ShardedListStore {
        let follower: PlacementFollower
        do {
            follower = try PlacementFollower(path: path, logger: logger)
        } catch {
            throw StoreError.cannotOpen("placement \(error)")
        }
        let store = ShardedListStore(
            follower: follower, stores: try openShards(follower.placement, configuration, logger: logger),
            logger: logger)
        follower.startWatching()
        return store
    }

    /// One store per shard of `placement`, or none: a shard that fails closes those opened.
    static func openShards(
        _ placement: Placement, _ configuration: StoreConfiguration, logger: Logger,
        recheckInterval: Duration = PGListener.recheckInterval
    ) throws -> [any ListStore] {
        var opened: [any ListStore] = []
        for shard in placement.shards {
            var shardConfiguration = configuration
            shardConfiguration.path = shard.uri
            do {
                opened.append(
                    try PGListStore.open(
                        shardConfiguration, logger: logger, recheckInterval: recheckInterval,
                        fleetEpoch: opened.first?.epoch, bucketFences: true))
            } catch let error as StoreError {
                opened.forEach { $0.close() }
                guard case .cannotOpen(let sentence) = error else { throw error }
                throw StoreError.cannotOpen("shard '\(shard.name)': \(sentence)")
            } catch {
                opened.forEach { $0.close() }
                throw error
            }
        }
        return opened
    }

    public var isShared: Bool { true }

    /// The first shard's window; setting it sets every shard's.
    public var retainVersions: Int {
        get { stores[0].retainVersions }
        set { for store in stores { store.retainVersions = newValue } }
    }

    /// Subscribes `observer` to every shard's commits, each shard asked only of its own lists.
    public func subscribe(_ observer: any CommitObserver) {
        let made = stores.indices.map { ShardObserver(observer, shard: $0, follower: follower) }
        observers.withLock { $0 = made }
        for (store, shardObserver) in zip(stores, made) { store.subscribe(shardObserver) }
    }

    /// Every shard's counters added up.
    public var metrics: StoreMetrics {
        stores.dropFirst().reduce(stores[0].metrics) { $0.adding($1.metrics) }
    }

    /// The first shard whose writes fail, by name; `ok` when none.
    public var health: StoreHealth {
        for (name, store) in zip(names, stores) {
            if case .degraded(let reason) = store.health { return .degraded(reason: "shard '\(name)': \(reason)") }
        }
        return .ok
    }

    public var shards: [ShardStatus] {
        let now = SystemClock.wallSeconds()
        return names.indices.map { index in
            let backlog = drainer.backlog(index)
            return ShardStatus(
                name: names[index], metrics: stores[index].metrics, health: stores[index].health,
                outboxPending: backlog.pending, outboxOldestSeconds: backlog.oldestAge(now: now))
        }
    }

    public func read<T: Sendable>(
        _ body: @escaping @Sendable (any StoreReader) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        read(on: 0, addressedTo: nil, body, completion: completion)
    }

    public func write<T: Sendable>(
        _ body: @escaping @Sendable (any StoreWriter) throws -> T,
        completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    ) {
        write(on: 0, addressedTo: nil, body, completion: completion)
    }

    public func read<T: Sendable>(
        in list: String, _ body: @escaping @Sendable (any StoreReader) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let home = Home(list)
        read(on: follower.shardIndex(ofBucket: home.bucket), addressedTo: home, body, completion: completion)
    }

    public func write<T: Sendable>(
        in list: String, _ body: @escaping @Sendable (any StoreWriter) throws -> T,
        completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    ) {
        let home = Home(list)
        write(on: follower.shardIndex(ofBucket: home.bucket), addressedTo: home, body, completion: completion)
    }

    private func read<T: Sendable>(
        on shard: Int, addressedTo home: Home?, _ body: @escaping @Sendable (any StoreReader) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let check = checker(shard: shard, addressedTo: home)
        stores[shard].read({ tx in try body(ShardReader(tx, check: check)) }, completion: completion)
    }

    private func write<T: Sendable>(
        on shard: Int, addressedTo home: Home?, _ body: @escaping @Sendable (any StoreWriter) throws -> T,
        rerouted: Bool = false, completion: @escaping @Sendable (Result<WriteOutcome<T>, any Error>) -> Void
    ) {
        let check = checker(shard: shard, addressedTo: home)
        let enqueued = EnqueuedFlag()
        let drainer = drainer
        stores[shard].write({ tx in
            try body(ShardWriter(tx, check: check) { enqueued.value.store(true, ordering: .relaxed) })
        }) {
            [weak self] result in
            // A write refused because a bucket it touched left this shard wrote nothing. The mover
            // rewrites the placement file right after marking the bucket moved, so the file
            // usually names the new shard already: read it now and run the body there once,
            // rather than refusing every write until the next look at the file (up to a second).
            if !rerouted, let self, case .failure(let error as BucketMovingError) = result, error.moved,
                let next = shardAfterMove(from: shard, addressedTo: home)
            {
                write(on: next, addressedTo: home, body, rerouted: true, completion: completion)
                return
            }
            completion(result)
            // The entry is durable now: deliver it without waiting for the next look.
            if case .success = result, enqueued.value.load(ordering: .relaxed) { drainer.wake(shard) }
        }
    }

    /// Where a write refused on `shard` for a moved bucket should run again: the placement file
    /// is read at once, and the shard of the request's list named if the placement changed (a
    /// peer's bucket may be the one that moved) or that shard is another one; nil when the file
    /// does not say anything new yet (the refusal stands, the client retries after `Retry-After`).
    private func shardAfterMove(from shard: Int, addressedTo home: Home?) -> Int? {
        let changed = follower.reload()
        let now = home.map { follower.shardIndex(ofBucket: $0.bucket) } ?? 0
        return changed || now != shard ? now : nil
    }

    /// What a body on `shard` runs before it touches a list: a list placed elsewhere throws.
    private func checker(shard: Int, addressedTo home: Home?) -> @Sendable (String) throws -> Void {
        let follower = follower
        let caller = home?.list ?? names[0]
        return { other in
            // A body asks about its own list several times a request: its bucket is known, and the
            // placement is still asked each time, so a move's switch meanwhile is seen.
            let own = other == home?.list
            let bucket = own ? home?.bucket ?? Bucket.of(other) : Bucket.of(other)
            guard follower.shardIndex(ofBucket: bucket) == shard else {
                // The request's own list changed shards between routing and running (a bucket move's
                // switch): a retry reaches its new shard.
                if own { throw BucketMovingError(list: other, bucket: bucket, moved: true) }
                throw CrossShardError(list: caller, other: other)
            }
        }
    }

    /// The list a request is addressed to, with its bucket hashed once.
    struct Home: Sendable {
        let list: String
        let bucket: Int

        init(_ list: String) {
            self.list = list
            bucket = Bucket.of(list)
        }
    }

    /// Every shard probed at once: a failure only when none answers; `degraded`, naming the
    /// shards away, when some do not.
    public func probeHealth(completion: @escaping @Sendable (Result<StoreHealth, any Error>) -> Void) {
        let probe = HealthProbe(names: names, completion: completion)
        for (index, store) in stores.enumerated() {
            store.probeHealth { probe.record(index, $0) }
        }
    }

    /// Whether every shard answers a trivial read; blocks the caller.
    public func healthCheck() -> Bool {
        stores.allSatisfy { $0.healthCheck() }
    }

    public func pruneNow() async throws {
        for store in stores { try await store.pruneNow() }
    }

    /// Stops following the placement file and the drainer, and closes every shard; idempotent.
    public func close() {
        follower.stopWatching()
        drainer.stop()
        for store in stores { store.close() }
    }
}
