import RecentsCore

/// What a PostgreSQL batch knows beyond the database: the rows it locked and read, the calls it
/// looked up, and the writes it holds back to send as a few set-based statements (`PGWriteBatch`).
///
/// A request's starting point is a `Checkpoint`; a request that fails is undone by restoring it.
/// Lives on the writer thread.
struct PGBatchOverlay {
    /// One call held back for the batch's INSERT.
    struct PendingCall {
        var listId: Int64
        var version: Int64
        var call: Call
        /// The list's `purge_below` (0: no forget's leftovers wait, none can hold this id).
        var purgeBelow: Int64 = 0
        /// The list's `cleared_below` (0: no clear waits, no hidden call can hold this id).
        var clearedBelow: Int64 = 0
    }

    /// One change of a `lists` row held back for the batch's UPDATE: the new version, how many
    /// live calls the change added (negative: removed) and how much it moved the badge.
    struct PendingListChange {
        var listId: Int64
        var version: Int64
        var countDelta: Int
        var unseenDelta = 0
        /// The list's `list_versions` row at `version` when the change moved the badge (the row
        /// holds the badge wherever it changed, like the state).
        var versionRow: PendingVersionRow?
    }

    /// A list's state and badge after a change, for its `list_versions` row.
    struct PendingVersionRow {
        var state: ListState
        var unseenMissed: Int
        var createdAt: Int64
    }

    /// One idempotent reply held back for the batch's INSERT.
    struct PendingReply {
        var list: String
        var key: String
        var reply: IdempotentReply
        var createdAt: Int64
    }

    /// How many pending entries of each kind there are: a request's starting point.
    struct Mark {
        var calls = 0
        var listChanges = 0
        var replies = 0
    }

    /// Locked `lists` rows with every change held back applied: the truth for this transaction.
    var rows: [String: ListRow] = [:]
    /// Live calls by list row id and call id, as the database plus what is held back has them;
    /// `.some(nil)` is a call known not to be live.
    var calls: [Int64: [String: Call?]] = [:]
    var pendingCalls: [PendingCall] = []
    var pendingListChanges: [PendingListChange] = []
    var pendingReplies: [PendingReply] = []

    /// What a request's failure puts back: the rows and calls as it found them (dictionaries,
    /// copied only if the request changes them) and how much was held back. Why not a copy of the
    /// whole overlay: every append to a held-back list would then copy that list, O(n²) per batch.
    struct Checkpoint {
        var rows: [String: ListRow]
        var calls: [Int64: [String: Call?]]
        var mark: Mark
    }

    var checkpoint: Checkpoint { Checkpoint(rows: rows, calls: calls, mark: mark) }

    /// Undoes a request back to `checkpoint`. Until the request sends anything the held-back
    /// lists only grow, so cutting them at the mark undoes its part; once it sent them (under its
    /// savepoint, after the earlier requests' part), what is left is all its own.
    mutating func restore(_ checkpoint: Checkpoint, sentSince: Bool) {
        rows = checkpoint.rows
        calls = checkpoint.calls
        if sentSince {
            pendingCalls.removeAll()
            pendingListChanges.removeAll()
            pendingReplies.removeAll()
        } else {
            pendingCalls.removeSubrange(checkpoint.mark.calls...)
            pendingListChanges.removeSubrange(checkpoint.mark.listChanges...)
            pendingReplies.removeSubrange(checkpoint.mark.replies...)
        }
    }

    var mark: Mark {
        Mark(calls: pendingCalls.count, listChanges: pendingListChanges.count, replies: pendingReplies.count)
    }

    var hasPending: Bool { !pendingCalls.isEmpty || !pendingListChanges.isEmpty || !pendingReplies.isEmpty }

    /// The reply held back for `key` in `list`, if any (the newest).
    func pendingReply(key: String, in list: String) -> IdempotentReply? {
        pendingReplies.last { $0.list == list && $0.key == key }?.reply
    }
}
