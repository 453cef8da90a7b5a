/// The check every write of a sharded store makes on its shard before it touches a list: that
/// the list's bucket is neither fenced by a move in progress nor moved away (`moved_buckets`).
///
/// A write takes a transaction-level shared advisory lock on its bucket (`pg_try_…_shared`: it
/// never waits) and reads the bucket's moved mark, in one statement sent with the batch's BEGIN,
/// so a hinted write pays no extra round trip. `BucketMover` takes the same lock exclusively for
/// its fence: it waits for the writes that already hold it to commit, and while it waits or holds
/// it every new try fails, so those writes are refused (`BucketMovingError`) instead of queueing
/// behind the copy. The lock and the mark live in the shard's own database, so the fence holds for
/// every instance, whichever placement each one follows. Unsharded stores never make this check.
///
/// Owned by the writer thread for one attempt of one batch; not Sendable.
final class BucketFence {
    /// The advisory lock space of bucket fences: the first key of the two-key form, which
    /// PostgreSQL keeps apart from the one-key locks on list names (`PGBatchLocks`).
    static let lockSpace: Int32 = 0x5243_4246  // "RCBF"

    /// Each bucket checked in this transaction: whether writes to it were refused, and why.
    private var checked: [Int: Bool?] = [:]
    /// Each list's bucket, hashed once per batch.
    private var buckets: [String: Int] = [:]

    /// The statement checking `lists`' buckets: it answers the refused ones, each with whether it
    /// moved away (`true`) or is fenced (`false`); `note` reads it.
    func checkStatement(of lists: some Sequence<String>) -> PGStatement {
        let wanted = Set(lists.lazy.map { self.bucket(of: $0) }).sorted()
        for bucket in wanted { checked[bucket] = .some(nil) }
        return PGStatement(
            """
            SELECT b, EXISTS (SELECT 1 FROM moved_buckets m WHERE m.bucket = b) AS moved
            FROM unnest($1::integer[]) AS b
            WHERE NOT pg_try_advisory_xact_lock_shared(\(Self.lockSpace), b)
                OR EXISTS (SELECT 1 FROM moved_buckets m WHERE m.bucket = b)
            """, PGArray(wanted))
    }

    /// Notes which buckets `checkStatement`'s result refused.
    func note(_ result: PGResult) throws {
        for row in 0..<result.count {
            checked[try result.int(row, 0)] = .some(result.bool(row, 1))
        }
    }

    /// Throws `BucketMovingError` when `list`'s bucket is refused, checking it first (one
    /// statement) when the batch's opening did not.
    func check(_ list: String, on connection: PGConnection) throws {
        let bucket = bucket(of: list)
        if checked[bucket] == nil { try note(connection.pipeline([checkStatement(of: [list])])[0]) }
        if case .some(.some(let moved)) = checked[bucket] {
            throw BucketMovingError(list: list, bucket: bucket, moved: moved)
        }
    }

    private func bucket(of list: String) -> Int {
        if let known = buckets[list] { return known }
        let bucket = Bucket.of(list)
        buckets[list] = bucket
        return bucket
    }
}
