/// What one shard's store hears in place of the API's observer: its commits pass through, and
/// it is asked only of the watched lists placed on it, so its listener's re-check does not look
/// up lists that live on other shards.
final class ShardObserver: CommitObserver {
    private weak let observer: (any CommitObserver)?
    private let shard: Int
    private let follower: PlacementFollower

    init(_ observer: any CommitObserver, shard: Int, follower: PlacementFollower) {
        self.observer = observer
        self.shard = shard
        self.follower = follower
    }

    func storeCommitted(_ versions: [String: Int64]) {
        observer?.storeCommitted(versions)
    }

    func watchedLists() -> [String: Int64] {
        (observer?.watchedLists() ?? [:]).filter { follower.shardIndex(of: $0.key) == shard }
    }
}
