/// The badge of unseen missed calls: calls of the missed filter's class, not deleted, newer than
/// the seen mark.
public enum UnseenMissed {
    /// How many of `missedCalls` (newest first, as a view orders them) are newer than `seenThrough`.
    ///
    /// Stops at the first call at or before the mark: every later one is older still, so a list
    /// whose mark is recent costs only its unseen calls.
    @inlinable
    public static func count(missedCalls: some Sequence<Call>, seenThrough: Int64) -> Int {
        var count = 0
        for call in missedCalls {
            guard call.timestamp > seenThrough else { break }
            if call.isMissed { count += 1 }
        }
        return count
    }

    /// How many of `calls`, just posted, the badge counts: the missed ones newer than `seenThrough`.
    @inlinable
    public static func added(_ calls: some Sequence<Call>, seenThrough: Int64) -> Int {
        calls.count { $0.isMissed && $0.timestamp > seenThrough }
    }
}
