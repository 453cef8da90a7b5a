import RecentsCore

/// What a PostgreSQL batch knows beyond the database: the rows it locked and read, the calls it
/// looked up, and the writes it holds back to send as a few set-based statements (`PGWriteBatch`).
///
/// A value, so a request's starting point is kept by copying it, and a request that fails is
/// undone by putting that copy back. Lives on the writer thread.
struct PGBatchOverlay {
    /// One call held back for the batch's INSERT.
    struct PendingCall {
        var listId: Int64
        var version: Int64
        var call: Call
    }

    /// One change of a `lists` row held back for the batch's UPDATE: the new version, and how
    /// many live calls the change added (negative: removed).
    struct PendingListChange {
        var listId: Int64
        var version: Int64
        var countDelta: Int
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

    var mark: Mark {
        Mark(calls: pendingCalls.count, listChanges: pendingListChanges.count, replies: pendingReplies.count)
    }

    var hasPending: Bool { !pendingCalls.isEmpty || !pendingListChanges.isEmpty || !pendingReplies.isEmpty }

    /// The reply held back for `key` in `list`, if any (the newest).
    func pendingReply(key: String, in list: String) -> IdempotentReply? {
        pendingReplies.last { $0.list == list && $0.key == key }?.reply
    }
}
