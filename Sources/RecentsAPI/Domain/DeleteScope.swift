/// Who a deletion reaches: only this list, or also the peer's list ("Delete for everyone").
///
/// The deletion rules themselves (an open row naming a deleted call closes; the peer loses only
/// the copies that name the caller) live in the store's `CallDeletion`: a sharded store applies the
/// peer's half on another shard, after the caller's commit.
enum DeleteScope: String, Sendable, CaseIterable {
    case me
    case everyone
}
