import RecentsCore

/// A list's row in `lists`, if it was ever written: its current version, retention floors, state
/// and live call count (the same columns on both engines).
struct ListRow {
    var id: Int64
    var version: Int64
    /// The version the last forget created (`lists.forgotten_below`); earlier ones are gone.
    var forgottenBelow: Int64
    /// Versions below this were pruned (matters only after the window was widened).
    var prunedBelow: Int64
    var state: ListState
    var callCount: Int
    /// Calls created below this version are left over from a forget, hidden from every read and
    /// waiting for the pruner (`lists.purge_below`; 0: none wait).
    var purgeBelow: Int64 = 0
    /// Live missed calls newer than `state.seenThrough` (`lists.unseen_missed`): the badge at `version`.
    var unseenMissed = 0
    /// The newest clear whose calls the pruner has not yet marked deleted (`lists.cleared_below`;
    /// 0: none waits): calls created below it are hidden at the current version.
    var clearedBelow: Int64 = 0

    /// Calls created below this version are not live at the current version: a forget's leftovers
    /// and the calls of a clear not yet marked deleted.
    var liveFloor: Int64 { max(forgottenBelow, clearedBelow) }
}

/// A list's `list_versions` row: the state (and badge) from its version up to the next row's.
struct VersionRow {
    var state: ListState
    /// The badge; nil in a row written before the count was stored (migration 0008 / postgresql 0007).
    var unseenMissed: Int?
}
